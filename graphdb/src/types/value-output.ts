import { DgraphError } from "../core/errors.ts";
import type { TypedValue } from "../core/scalar.ts";
import type { GeoJsonGeometry } from "./geo.ts";
import { formatGoFixed6, goQuote } from "./strconv.ts";

/**
 * Query-result encoding of scalar values, as Dgraph's `query/outputnode.go` (`valToBytes`) writes them:
 *
 * | type            | JSON                                                              |
 * |-----------------|-------------------------------------------------------------------|
 * | int             | integer (`42`)                                                    |
 * | float           | Go `%f`: six decimals (`1.500000`, `1000000.000000`)              |
 * | bool            | `true` / `false`                                                  |
 * | string, default | Go `json.Marshal` string (HTML characters escaped as `\u003c`…)   |
 * | datetime        | RFC 3339 string (`"2006-01-02T15:04:05Z"`); Go's zero time → `""` |
 * | geo             | GeoJSON object `{"type":…,"coordinates":…}`                       |
 * | uid             | `"0x1f"`                                                          |
 * | binary          | Go `%q` of the bytes                                              |
 * | bigfloat        | the decimal as a JSON string                                      |
 * | float32vector   | array of float32 numbers in shortest form                         |
 * | password        | never written (undefined)                                         |
 */

const HEX = "0123456789abcdef";

/** Go `encoding/json` string encoding (HTML-safe: `<`, `>`, `&`, U+2028, U+2029 escaped). */
export function goJsonString(s: string): string {
  let out = '"';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      switch (c) {
        case 0x22:
          esc = '\\"';
          break;
        case 0x5c:
          esc = "\\\\";
          break;
        case 0x0a:
          esc = "\\n";
          break;
        case 0x0d:
          esc = "\\r";
          break;
        case 0x09:
          esc = "\\t";
          break;
        case 0x08:
          esc = "\\b";
          break;
        case 0x0c:
          esc = "\\f";
          break;
        default:
          esc = `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      }
    } else if (c === 0x2028 || c === 0x2029) {
      esc = `\\u202${HEX[c & 15]}`;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const isPair =
        c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
      if (isPair) {
        i++;
        continue;
      }
      esc = "\\ufffd"; // invalid UTF-8 becomes U+FFFD in Go
    }
    if (esc !== undefined) {
      out += s.slice(run, i) + esc;
      run = i + 1;
    }
  }
  return `${out + s.slice(run)}"`;
}

/** Shortest decimal of a float32 that reads back to the same float32, in Go's JSON number format. */
function float32Json(f: number): string {
  const v = Math.fround(f);
  if (!Number.isFinite(v)) throw new DgraphError(`json: unsupported value: ${v}`);
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  for (let p = 1; p <= 9; p++) {
    const candidate = Number(v.toPrecision(p));
    if (Math.fround(candidate) === v) return String(candidate);
  }
  return String(v);
}

/** `"0x1f"` form of a uid. */
export function uidText(uid: number): string {
  return `0x${uid.toString(16)}`;
}

/**
 * JSON text of a value in a query result, exactly as Dgraph writes it; undefined for passwords (the
 * caller omits the key).
 */
export function valueToJson(v: TypedValue): string | undefined {
  switch (v.type) {
    case "int":
      return String(v.value as number);
    case "float":
      return formatGoFixed6(v.value as number);
    case "bool":
      return v.value ? "true" : "false";
    case "string":
    case "default":
      return goJsonString(String(v.value));
    case "datetime":
      return v.value === "0001-01-01T00:00:00Z" ? '""' : goJsonString(String(v.value));
    case "geo": {
      const g = v.value as GeoJsonGeometry;
      return `{"type":${JSON.stringify(g.type)},"coordinates":${JSON.stringify(g.coordinates)}}`;
    }
    case "uid":
      return `"${uidText(v.value as number)}"`;
    case "binary":
      return goQuote(String(v.value));
    case "bigfloat":
      return goJsonString(String(v.value));
    case "float32vector":
      return `[${(v.value as number[]).map(float32Json).join(",")}]`;
    case "password":
      return undefined;
  }
}

/**
 * The value as a plain JS value for encoders built on JSON.stringify (floats become numbers, so their
 * `%f` text is lost: use valueToJson for byte-exact output); undefined for passwords.
 */
export function outputValue(v: TypedValue): unknown {
  switch (v.type) {
    case "password":
      return undefined;
    case "datetime":
      return v.value === "0001-01-01T00:00:00Z" ? "" : v.value;
    case "uid":
      return uidText(v.value as number);
    case "geo": {
      const g = v.value as GeoJsonGeometry;
      return { type: g.type, coordinates: g.coordinates };
    }
    case "float32vector":
      return (v.value as number[]).map((f) => Number(float32Json(f)));
    default:
      return v.value;
  }
}
