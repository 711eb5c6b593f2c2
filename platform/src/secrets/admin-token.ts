import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The shortest admin token accepted. The token guards everything (apps, env vars, the graph database), so
 * it must be out of reach of guessing even at the throttle's pace: 32 characters of `openssl rand -base64
 * 32` (44 in fact) are 256 bits; the generated token is `tra_` and 43 base64url characters.
 */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** Fewer different characters than this means a repeated pattern ("aaaa…", "abcabc…"), not a secret. */
const MIN_DISTINCT_CHARACTERS = 10;

const HOW_TO_GENERATE =
  "generate one with `openssl rand -base64 32` (or leave TRELLIS_ADMIN_TOKEN unset and the platform " +
  "generates one into <data>/admin-token)";

/**
 * The admin token guarding the control plane and /admin/slash: given, or `TRELLIS_ADMIN_TOKEN`, or kept in
 * `<dataDir>/admin-token` (generated, mode 0600, on first start). `file` is empty when not from the file.
 * A token too short or too repetitive to be a secret stops the platform at startup (`weakAdminToken`).
 */
export async function loadAdminToken(
  dataDir: string,
  given: string | undefined = process.env.TRELLIS_ADMIN_TOKEN,
): Promise<{ token: string; file: string }> {
  if (given) {
    const weakness = weakAdminToken(given);
    if (weakness) throw new Error(`the admin token (TRELLIS_ADMIN_TOKEN) ${weakness}: ${HOW_TO_GENERATE}`);
    return { token: given, file: "" };
  }
  const file = join(dataDir, "admin-token");
  try {
    await writeFile(file, `tra_${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const token = (await readFile(file, "utf8")).trim();
  if (token === "") throw new Error(`${file} is empty: delete it to generate a new admin token`);
  const weakness = weakAdminToken(token);
  if (weakness) {
    throw new Error(
      `the admin token in ${file} ${weakness}: delete the file to generate a new one, or ` +
        "write one made with `openssl rand -base64 32` into it",
    );
  }
  return { token, file };
}

/** Why `token` is not acceptable as the admin token, or undefined when it is. */
export function weakAdminToken(token: string): string | undefined {
  if (token.length < MIN_ADMIN_TOKEN_LENGTH)
    return `is ${plural(token.length, "character")} long; it must be at least ${MIN_ADMIN_TOKEN_LENGTH}`;
  const distinct = new Set(token).size;
  if (distinct < MIN_DISTINCT_CHARACTERS)
    return `uses only ${plural(distinct, "different character")}; it must be random`;
  return undefined;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
