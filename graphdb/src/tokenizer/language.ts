/**
 * Language tags → the base language the text analysers use (Dgraph `tok.LangBase`): the primary subtag
 * of a BCP 47 tag, lower-cased (`en-US` → `en`, `zh-Hans` → `zh`). An empty, private-use (`x-klingon`)
 * or malformed tag falls back to English, as Dgraph does.
 */

const cache = new Map<string, string>();

export function baseLanguage(lang: string | undefined): string {
  if (!lang) return "en";
  let base = cache.get(lang);
  if (base === undefined) {
    const primary = lang.split(/[-_]/, 1)[0].toLowerCase();
    base = /^[a-z]{2,3}$/.test(primary) ? primary : "en";
    if (cache.size > 1000) cache.clear();
    cache.set(lang, base);
  }
  return base;
}
