import { gzipSync } from "node:zlib";

/**
 * A tar.gz that is small on the wire and huge inflated: one tar entry whose header claims `inflatedBytes`
 * of content, then that many zero bytes as repeated gzip members of 1 MiB each (a gzip stream may be many
 * members; each compresses to ~1 KiB). 3 GiB costs ~3 MiB to send and no time to make.
 */
export function gzipBomb(inflatedBytes: number, name = "app.wasm"): Uint8Array {
  const mib = 1024 * 1024;
  const header = Buffer.alloc(512);
  header.write(name, 0, "utf8");
  header.write("0000644\0", 100);
  header.write("0000000\0", 108);
  header.write("0000000\0", 116);
  header.write(`${inflatedBytes.toString(8).padStart(11, "0")}\0`, 124);
  header.write("00000000000\0", 136);
  header.write("0", 156); // a regular file
  header.write("ustar\0" + "00", 257);
  header.write("        ", 148); // checksum computed over spaces
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  const zeros = gzipSync(Buffer.alloc(mib), { level: 9 });
  const members = Math.ceil(inflatedBytes / mib);
  return Buffer.concat([gzipSync(header), ...Array.from({ length: members }, () => zeros)]);
}
