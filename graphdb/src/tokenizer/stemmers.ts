import { createRequire } from "node:module";

/**
 * Stemmers of the fulltext tokenizer, per base language, from the `snowball-stemmers` package. English
 * uses the original Porter algorithm, as Dgraph does (bleve `stemmer_porter`); the other languages use
 * their Snowball stemmer (Dgraph uses Lucene's "light" stemmers for de/es/fr/it/pt, Snowball for the
 * rest). Stemming is the slow part of fulltext tokenizing (~4 µs a word), so results are cached.
 */

interface SnowballStemmer {
  stem(word: string): string;
}

interface SnowballFactory {
  newStemmer(algorithm: string): SnowballStemmer;
  algorithms(): string[];
}

const snowball = createRequire(import.meta.url)("snowball-stemmers") as SnowballFactory;

const ALGORITHM_BY_LANGUAGE: ReadonlyMap<string, string> = new Map([
  ["ar", "arabic"],
  ["da", "danish"],
  ["de", "german"],
  ["en", "porter"],
  ["es", "spanish"],
  ["fi", "finnish"],
  ["fr", "french"],
  ["hu", "hungarian"],
  ["it", "italian"],
  ["nl", "dutch"],
  ["no", "norwegian"],
  ["pt", "portuguese"],
  ["ro", "romanian"],
  ["ru", "russian"],
  ["sv", "swedish"],
  ["tr", "turkish"],
]);

const CACHE_LIMIT = 50_000;

export type Stem = (word: string) => string;

const stemmers = new Map<string, Stem | null>();

function cachedStemmer(algorithm: string): Stem {
  const stemmer = snowball.newStemmer(algorithm);
  const cache = new Map<string, string>();
  return (word) => {
    let stem = cache.get(word);
    if (stem === undefined) {
      stem = stemmer.stem(word);
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(word, stem);
    }
    return stem;
  };
}

/** The stemmer of a base language, or undefined when the language is not stemmed. */
export function stemmerFor(baseLang: string): Stem | undefined {
  let stem = stemmers.get(baseLang);
  if (stem === undefined) {
    const algorithm = ALGORITHM_BY_LANGUAGE.get(baseLang);
    stem = algorithm ? cachedStemmer(algorithm) : null;
    stemmers.set(baseLang, stem);
  }
  return stem ?? undefined;
}
