/**
 * Secret placeholders in connection settings: `{{NAME}}` (spaces inside the braces allowed) and
 * `{{base64(USER:PASS)}}` (base64 of `user:pass`, for HTTP Basic auth), as Modus writes them. Anything
 * else that opens with `{{` is a mistake we report rather than send verbatim to a remote service.
 */

/** `index` is where `text` starts in the scanned string. */
export type Placeholder =
  | { kind: "name"; text: string; index: number; name: string }
  | { kind: "base64"; text: string; index: number; user: string; pass: string };

const NAME = "[A-Za-z0-9_]+";
const PLACEHOLDER = new RegExp(
  `\\{\\{\\s*(?:base64\\(\\s*(${NAME})\\s*:\\s*(${NAME})\\s*\\)|(${NAME}))\\s*\\}\\}`,
  "y",
);

export interface PlaceholderScan {
  placeholders: Placeholder[];
  /** Text of each `{{…` that is not a valid placeholder. */
  bad: string[];
}

/** Finds every placeholder in `value`, and every `{{` that does not start a valid one. */
export function scanPlaceholders(value: string): PlaceholderScan {
  const placeholders: Placeholder[] = [];
  const bad: string[] = [];
  let from = 0;
  for (;;) {
    const at = value.indexOf("{{", from);
    if (at < 0) break;
    PLACEHOLDER.lastIndex = at;
    const m = PLACEHOLDER.exec(value);
    if (!m) {
      const close = value.indexOf("}}", at);
      bad.push(close < 0 ? value.slice(at) : value.slice(at, close + 2));
      from = at + 2;
      continue;
    }
    placeholders.push(
      m[3] !== undefined
        ? { kind: "name", text: m[0], index: at, name: m[3] }
        : { kind: "base64", text: m[0], index: at, user: m[1], pass: m[2] },
    );
    from = at + m[0].length;
  }
  return { placeholders, bad };
}

/** The secret names a placeholder reads (two for base64). */
export function placeholderNames(p: Placeholder): string[] {
  return p.kind === "name" ? [p.name] : [p.user, p.pass];
}

/** Replaces each placeholder using `lookup`; a name `lookup` returns undefined for becomes "". */
export function fillPlaceholders(value: string, lookup: (name: string) => string | undefined): string {
  let out = "";
  let last = 0;
  for (const p of scanPlaceholders(value).placeholders) {
    out += value.slice(last, p.index);
    out +=
      p.kind === "name"
        ? (lookup(p.name) ?? "")
        : Buffer.from(`${lookup(p.user) ?? ""}:${lookup(p.pass) ?? ""}`).toString("base64");
    last = p.index + p.text.length;
  }
  return out + value.slice(last);
}
