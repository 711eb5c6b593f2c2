/**
 * GitHub Actions expressions (`github.event_name == 'push' && steps.deploy.outputs.preview-url != ''`), as
 * far as workflows of this repository use them: literals, context paths, `!`, `==`, `!=`, `&&`, `||` and
 * parentheses, with GitHub's rules: `&&`/`||` yield an operand, strings compare without case, operands of
 * different types compare as numbers (null and '' are 0), and a missing property is null. Anything else is
 * an error, so that a workflow cannot use what the test runner would get wrong.
 */
export type ExpressionValue = string | number | boolean | null | { [key: string]: unknown };

type Token =
  | { kind: "op"; value: string }
  | { kind: "value"; value: ExpressionValue }
  | { kind: "path"; value: string };

export function evaluateExpression(source: string, context: Record<string, unknown>): ExpressionValue {
  const tokens = tokenize(source);
  let at = 0;
  const peek = () => tokens[at];
  const take = (op: string) => {
    const token = tokens[at];
    if (token?.kind === "op" && token.value === op) {
      at++;
      return true;
    }
    return false;
  };
  const or = (): ExpressionValue => {
    let left = and();
    while (take("||")) {
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): ExpressionValue => {
    let left = equality();
    while (take("&&")) {
      const right = equality();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const equality = (): ExpressionValue => {
    let left = unary();
    for (;;) {
      if (take("==")) left = equals(left, unary());
      else if (take("!=")) left = !equals(left, unary());
      else return left;
    }
  };
  const unary = (): ExpressionValue => (take("!") ? !truthy(unary()) : primary());
  const primary = (): ExpressionValue => {
    if (take("(")) {
      const inner = or();
      if (!take(")")) throw new Error(`missing ) in ${source}`);
      return inner;
    }
    const token = peek();
    at++;
    if (token?.kind === "value") return token.value;
    if (token?.kind === "path") return lookup(context, token.value);
    throw new Error(`unexpected ${token ? token.value : "end"} in ${source}`);
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`unexpected ${String(tokens[at]?.value)} in ${source}`);
  return value;
}

/** A string with `${{ … }}` parts replaced by their values. */
export function interpolate(text: string, context: Record<string, unknown>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_all, expression: string) => {
    const value = evaluateExpression(expression, context);
    return value === null ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
  });
}

/** An `if:` condition: an expression, with or without `${{ }}` around it. */
export function condition(text: string | undefined, context: Record<string, unknown>): boolean {
  if (text === undefined) return true;
  const bare = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(text)?.[1] ?? text;
  return truthy(evaluateExpression(bare, context));
}

export function truthy(value: ExpressionValue): boolean {
  return !(value === false || value === null || value === 0 || value === "" || Number.isNaN(value));
}

function equals(a: ExpressionValue, b: ExpressionValue): boolean {
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && a !== null && b !== null) return a === b;
  return toNumber(a) === toNumber(b);
}

function toNumber(value: ExpressionValue): number {
  if (value === null) return 0;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") return value.trim() === "" ? 0 : Number(value);
  return Number.NaN;
}

function lookup(context: Record<string, unknown>, path: string): ExpressionValue {
  let current: unknown = context;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object") return null;
    current = (current as Record<string, unknown>)[key];
  }
  return current === undefined ? null : (current as ExpressionValue);
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /\s*(?:(==|!=|&&|\|\||!|\(|\))|'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?)\b|(true|false|null)\b|([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*))/y;
  let at = 0;
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break;
    pattern.lastIndex = at;
    const m = pattern.exec(source);
    if (!m) throw new Error(`cannot read the expression at "${source.slice(at)}"`);
    at = pattern.lastIndex;
    if (m[1] !== undefined) tokens.push({ kind: "op", value: m[1] });
    else if (m[2] !== undefined) tokens.push({ kind: "value", value: m[2].replaceAll("''", "'") });
    else if (m[3] !== undefined) tokens.push({ kind: "value", value: Number(m[3]) });
    else if (m[4] !== undefined)
      tokens.push({ kind: "value", value: m[4] === "null" ? null : m[4] === "true" });
    else tokens.push({ kind: "path", value: m[5]! });
  }
  return tokens;
}
