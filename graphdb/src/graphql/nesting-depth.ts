/**
 * How deeply a GraphQL request nests, measured before anything recursive touches it. graphql-js parses,
 * validates and coerces input values recursively, so a document of 2,000 nested lists (well within the
 * token limit) overflowed the stack and answered `RangeError: Maximum call stack size exceeded`. Both
 * measures are iterative and stop as soon as they pass `limit`.
 */

/** The default bound of both measures: far beyond any real selection or input (selections stop at 20). */
export const DEFAULT_MAX_NESTING = 64;

/**
 * The deepest nesting of `{`, `[` and `(` in a GraphQL document, outside strings and comments (a value
 * over `limit` as soon as it is passed).
 */
export function documentNesting(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "#") {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    } else if (c === '"') {
      i = text.startsWith('"""', i) ? skipBlockString(text, i + 3) : skipString(text, i + 1);
    } else if (c === "{" || c === "[" || c === "(") {
      deepest = Math.max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c === "}" || c === "]" || c === ")") {
      depth = Math.max(0, depth - 1);
    }
  }
  return deepest;
}

/** The deepest nesting of lists and objects in a JSON value (variables), counted up to past `limit`. */
export function valueNesting(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const item of Array.isArray(v) ? v : Object.values(v)) stack.push([item, depth + 1]);
  }
  return deepest;
}

/** Why a request nests too deeply (document or variables), in words for its client; undefined if not. */
export function nestingProblem(query: string, variables: unknown, limit: number): string | undefined {
  if (documentNesting(query, limit) > limit) {
    return `the query nests lists, objects, arguments or selections more than ${limit} deep, the limit: flatten it`;
  }
  if (valueNesting(variables, limit) > limit) {
    return `the variables nest lists or objects more than ${limit} deep, the limit: flatten them`;
  }
  return undefined;
}

/** The index of the closing quote of a string that starts at `i` (after its opening quote). */
function skipString(text: string, i: number): number {
  while (i < text.length && text[i] !== '"' && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
  return i;
}

/** The index of the last quote of a block string whose content starts at `i`. */
function skipBlockString(text: string, i: number): number {
  while (i < text.length) {
    if (text.startsWith('\\"""', i)) i += 4;
    else if (text.startsWith('"""', i)) return i + 2;
    else i++;
  }
  return i;
}
