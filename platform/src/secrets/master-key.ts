import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The key that encrypts env vars at rest: `TRELLIS_MASTER_KEY` (base64 of 32 bytes) when set, else
 * `<dataDir>/master.key`, generated (mode 0600) on first start. Losing it makes saved env vars unreadable.
 */
export async function loadMasterKey(
  dataDir: string,
  fromEnv = process.env.TRELLIS_MASTER_KEY,
): Promise<Buffer> {
  if (fromEnv) return decode(fromEnv, "TRELLIS_MASTER_KEY");
  const file = join(dataDir, "master.key");
  try {
    await writeFile(file, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  return decode((await readFile(file, "utf8")).trim(), file);
}

function decode(text: string, source: string): Buffer {
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== 32) {
    throw new Error(
      `${source}: the master key must be 32 bytes in base64 (e.g. \`openssl rand -base64 32\`)`,
    );
  }
  return key;
}
