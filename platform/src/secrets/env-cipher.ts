import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Env var values at rest: AES-256-GCM under the master key, bound to the app and variable name (AAD) so a
 * sealed value copied to another row does not decrypt. Sealed layout: nonce | tag | ciphertext.
 */
export class EnvCipher {
  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error("the master key must be 32 bytes");
  }

  seal(app: string, name: string, value: string): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.masterKey, nonce);
    cipher.setAAD(aad(app, name));
    const ct = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), ct]);
  }

  open(app: string, name: string, sealed: Uint8Array): string {
    const buf = Buffer.from(sealed);
    const decipher = createDecipheriv("aes-256-gcm", this.masterKey, buf.subarray(0, NONCE_BYTES));
    decipher.setAAD(aad(app, name));
    decipher.setAuthTag(buf.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(buf.subarray(NONCE_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw new Error(
        `cannot decrypt env var ${name} of app ${app}: the master key differs from the one it was saved with`,
      );
    }
  }
}

function aad(app: string, name: string): Buffer {
  return Buffer.from(`${app}\u0000${name}`, "utf8");
}

/** What the console shows for a saved value. */
export function maskValue(value: string): string {
  return value.length >= 8 ? `••••••${value.slice(-2)}` : "••••••";
}
