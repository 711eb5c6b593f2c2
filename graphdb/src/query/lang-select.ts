/**
 * Which values of a (subject, predicate) a query sees, by language preference (Dgraph's
 * `List.PostingFor` / `facetsFilterValuePostingList`):
 * - `name` (no tags): the untagged value; for list predicates every untagged value;
 * - `name@en:fr`: the first language present, nothing else;
 * - `name@en:.` / `name@.`: the listed languages, then the untagged value, then any tagged one;
 * - `name@*`: every value, tagged or not.
 */
import type { ValuePosting } from "../core/graph-reader.ts";

const NONE: ValuePosting[] = [];

/** True for the `@*` form (all languages). */
export function isAllLangs(langs: readonly string[]): boolean {
  return langs.length === 1 && langs[0] === "*";
}

/** The values the query sees; returns `row` itself when nothing needs to be dropped. */
export function selectValues(row: ValuePosting[], langs: readonly string[], list: boolean): ValuePosting[] {
  const n = row.length;
  if (n === 0) return NONE;
  if (langs.length === 0) {
    if (n === 1) return row[0].lang === "" ? row : NONE;
    if (list) {
      let tagged = 0;
      for (let i = 0; i < n; i++) if (row[i].lang !== "") tagged++;
      if (tagged === 0) return row;
      const out: ValuePosting[] = [];
      for (let i = 0; i < n; i++) if (row[i].lang === "") out.push(row[i]);
      return out;
    }
    for (let i = 0; i < n; i++) if (row[i].lang === "") return [row[i]];
    return NONE;
  }
  if (isAllLangs(langs)) return row;
  const p = postingFor(row, langs);
  return p === undefined ? NONE : [p];
}

/** The single value picked by a language preference list (Dgraph's `postingForLangs`). */
export function postingFor(row: ValuePosting[], langs: readonly string[]): ValuePosting | undefined {
  let any = false;
  for (const lang of langs) {
    if (lang === ".") {
      any = true;
      break;
    }
    for (let i = 0; i < row.length; i++) if (row[i].lang === lang) return row[i];
  }
  if (any || langs.length === 0) {
    for (let i = 0; i < row.length; i++) if (row[i].lang === "") return row[i];
  }
  if (any) {
    for (let i = 0; i < row.length; i++) if (row[i].lang !== "") return row[i];
  }
  return undefined;
}

/**
 * The values a function (`eq`, `regexp`, `anyofterms`...) tests for one subject, for the function's
 * single language (`langForFunc`): "" = the untagged value (every untagged value of a list),
 * "." = every value, "en" = that language's value.
 */
export function valuesForFunction(row: ValuePosting[], lang: string, list: boolean): ValuePosting[] {
  if (row.length === 0) return NONE;
  if (lang === ".") return row;
  if (lang === "") return selectValues(row, NONE_LANGS, list);
  for (let i = 0; i < row.length; i++) if (row[i].lang === lang) return [row[i]];
  return NONE;
}

const NONE_LANGS: readonly string[] = [];
