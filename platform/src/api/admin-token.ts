import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The admin token guarding the control plane and /admin/slash: given, or `TRELLIS_ADMIN_TOKEN`, or kept in
 * `<dataDir>/admin-token` (generated, mode 0600, on first start). `file` is empty when not from the file.
 */
export async function loadAdminToken(
  dataDir: string,
  given: string | undefined = process.env.TRELLIS_ADMIN_TOKEN,
): Promise<{ token: string; file: string }> {
  if (given) return { token: given, file: "" };
  const file = join(dataDir, "admin-token");
  try {
    await writeFile(file, `tra_${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const token = (await readFile(file, "utf8")).trim();
  if (token === "") throw new Error(`${file} is empty: delete it to generate a new admin token`);
  return { token, file };
}
