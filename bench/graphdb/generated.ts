/**
 * Deterministic generator of a film graph shaped like Dgraph's "1million" set (storage-perf.md §5):
 * films with names in several languages, release dates, genres, countries, ratings and taglines;
 * performance mediators (starring / performance.film / performance.actor / performance.character);
 * actors (actor.film) and directors (director.film) whose film counts follow a Zipf law.
 */
import { readFileSync } from "node:fs";
import type { Dataset } from "./dataset.ts";
import { Prng, Zipf } from "./prng.ts";
import { QuadSet } from "./quads.ts";

export const MILLION_SCHEMA_FILE = "/work/shared/data/1million.schema";

/** ≈36 N-Quads per film: 28,500 films give just over 1,000,000 N-Quads. */
export const DEFAULT_FILMS = 28_500;

const SYLLABLES = (
  "ka ri to ma ne lo sa vi de an el or un ber gan tor mel son dra vel fin gor lan mir nas pel " +
  "qua ros sel tam ul ven wil yor zan bri cal dor fen hal jor kel lor mor nor per ral sor tul var"
).split(" ");

function word(rng: Prng, minSyl: number, maxSyl: number): string {
  let w = "";
  const n = rng.range(minSyl, maxSyl);
  for (let i = 0; i < n; i++) w += rng.pick(SYLLABLES);
  return w;
}

function vocabulary(rng: Prng, size: number, minSyl: number, maxSyl: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  while (out.length < size) {
    const w = word(rng, minSyl, maxSyl);
    if (w.length < 3 || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

function cjk(rng: Prng, from: number, to: number, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCodePoint(rng.range(from, to));
  return s;
}

export interface GeneratorOptions {
  films?: number;
  seed?: number;
  onProgress?: (done: number, total: number) => void;
}

export function generateDataset(options: GeneratorOptions = {}): Dataset {
  const F = options.films ?? DEFAULT_FILMS;
  const rng = new Prng(options.seed ?? 1_000_000);
  const q = new QuadSet();

  const titleWords = vocabulary(rng, 4000, 2, 3);
  const firstNames = vocabulary(rng, 600, 2, 2);
  const lastNames = vocabulary(rng, 3000, 2, 3);
  const titleZipf = new Zipf(titleWords.length, 1.0, 10);
  const firstZipf = new Zipf(firstNames.length, 0.8, 5);
  const lastZipf = new Zipf(lastNames.length, 0.8, 5);
  const personName = () =>
    `${cap(firstNames[firstZipf.sample(rng)])} ${cap(lastNames[lastZipf.sample(rng)])}`;

  // Reference nodes: ≈600 genres, ≈200 countries, ≈20 ratings, each with an English name.
  const refNodes = (count: number, label: (i: number) => string) =>
    Array.from({ length: count }, (_, i) => {
      const n = q.newNode();
      q.value(n, "name", label(i), "en");
      return n;
    });
  const genreWords = vocabulary(rng, 600, 2, 3);
  const genres = refNodes(600, (i) => `${cap(genreWords[i])} Film`);
  const countryWords = vocabulary(rng, 200, 2, 3);
  const countries = refNodes(200, (i) => cap(countryWords[i]) + "ia");
  const ratings = refNodes(20, (i) => `R-${i + 1}`);
  const genreZipf = new Zipf(genres.length, 0.9, 3);
  const countryZipf = new Zipf(countries.length, 1.2, 1);

  // Actors ≈ 2F and directors ≈ 0.4F. Every person gets at least one credit; the rest follow Zipf.
  const nActors = 2 * F;
  const nDirectors = Math.max(1, Math.round(0.4 * F));
  const nPerformances = Math.round(5.8 * F);
  const actorOfPerf = new Int32Array(nPerformances);
  {
    const order = rng.shuffle(Array.from({ length: nActors }, (_, i) => i));
    const zipf = new Zipf(nActors, 1.1, 50);
    for (let i = 0; i < nPerformances; i++) actorOfPerf[i] = i < nActors ? i : order[zipf.sample(rng)];
    rng.shuffle(actorOfPerf as unknown as number[]);
  }
  const directorEdges: [film: number, director: number][] = [];
  {
    const order = rng.shuffle(Array.from({ length: nDirectors }, (_, i) => i));
    const zipf = new Zipf(nDirectors, 1.1, 20);
    const nEdges = Math.round(1.05 * F);
    for (let i = 0; i < nEdges; i++) {
      const film = i < F ? i : rng.int(F);
      directorEdges.push([film, i < nDirectors ? i : order[zipf.sample(rng)]]);
    }
    rng.shuffle(directorEdges);
  }
  const directorsOfFilm: number[][] = Array.from({ length: F }, () => []);
  for (const [film, d] of directorEdges)
    if (!directorsOfFilm[film].includes(d)) directorsOfFilm[film].push(d);

  const actorNode = new Int32Array(nActors).fill(-1);
  const directorNode = new Int32Array(nDirectors).fill(-1);
  const films: number[] = [];
  const directorNodes: number[] = [];
  const otherLangs = ["de", "fr", "ja", "zh"];
  let perf = 0;

  for (let f = 0; f < F; f++) {
    const film = q.newNode();
    films.push(film);
    const words = Array.from({ length: rng.range(1, 4) }, () => cap(titleWords[titleZipf.sample(rng)]));
    q.value(film, "name", words.join(" "), "en");
    if (rng.chance(0.3)) {
      const lang = rng.pick(otherLangs);
      const other =
        lang === "ja"
          ? cjk(rng, 0x30a1, 0x30f6, rng.range(3, 8))
          : lang === "zh"
            ? cjk(rng, 0x4e00, 0x9fa5, rng.range(2, 6))
            : lang === "de"
              ? `Der ${words.map((w) => w + "en").join(" ")}`
              : `Le ${words.map((w) => w + "e").join(" ")}`;
      q.value(film, "name", other, lang);
    }
    // 1900–2020, skewed towards recent years.
    const year = 2020 - Math.floor(121 * rng.float() ** 2);
    const mm = String(rng.range(1, 12)).padStart(2, "0");
    const dd = String(rng.range(1, 28)).padStart(2, "0");
    q.value(film, "initial_release_date", `${year}-${mm}-${dd}T00:00:00Z`);
    const nGenres = rng.chance(0.3) ? 1 : rng.chance(0.5) ? 2 : rng.chance(0.5) ? 3 : 4;
    const chosen = new Set<number>();
    while (chosen.size < nGenres) chosen.add(genres[genreZipf.sample(rng)]);
    for (const g of chosen) q.edge(film, "genre", g);
    q.edge(film, "country", countries[countryZipf.sample(rng)]);
    if (rng.chance(0.06)) q.edge(film, "country", countries[countryZipf.sample(rng)]);
    if (rng.chance(0.1)) q.edge(film, "rating", rng.pick(ratings));
    if (rng.chance(0.05))
      q.value(film, "tagline", `The ${titleWords[rng.int(titleWords.length)]} returns`, "en");
    q.value(film, "dgraph.type", "Film");

    // ≈5.8 performances per film (1–12), each with a distinct actor where possible.
    const left = nPerformances - perf;
    const nPerf = f === F - 1 ? left : Math.min(left, Math.max(1, Math.round(5.8 + (rng.float() - 0.5) * 9)));
    const castThisFilm = new Set<number>();
    for (let k = 0; k < nPerf; k++, perf++) {
      let a = actorOfPerf[perf];
      if (castThisFilm.has(a)) a = actorOfPerf[rng.int(nPerformances)];
      castThisFilm.add(a);
      if (actorNode[a] < 0) {
        actorNode[a] = q.newNode();
        q.value(actorNode[a], "name", personName(), "en");
      }
      const p = q.newNode();
      q.edge(film, "starring", p);
      q.edge(p, "performance.film", film);
      q.edge(p, "performance.actor", actorNode[a]);
      if (rng.chance(0.3)) {
        const ch = q.newNode();
        q.value(ch, "name", personName(), "en");
        q.edge(p, "performance.character", ch);
      }
      q.edge(actorNode[a], "actor.film", p);
    }
    for (const d of directorsOfFilm[f]) {
      if (directorNode[d] < 0) {
        directorNode[d] = q.newNode();
        directorNodes.push(directorNode[d]);
        q.value(directorNode[d], "name", personName(), "en");
        q.value(directorNode[d], "dgraph.type", "Director");
      }
      q.edge(directorNode[d], "director.film", film);
    }
    if ((f & 1023) === 0) options.onProgress?.(f, F);
  }
  options.onProgress?.(F, F);

  const schema =
    readFileSync(MILLION_SCHEMA_FILE, "utf8") +
    "performance.film: [uid] .\nperformance.actor: [uid] .\nperformance.character: [uid] .\n" +
    "type Film {\n  name\n  initial_release_date\n  genre\n  country\n  rating\n  tagline\n  starring\n}\n" +
    "type Director {\n  name\n  director.film\n}\n";
  return {
    id: "generated",
    title: `Generated 1million-shaped film graph (${F.toLocaleString("en-US")} films, seed ${options.seed ?? 1_000_000})`,
    quads: q,
    schema,
    optionalSchemaLines: ["loc                  : geo @index(geo) ."],
    vocab: {
      name: "name",
      nameLang: "en",
      starring: "starring",
      actor: "performance.actor",
      directs: { pred: "director.film", fromDirector: true },
      genre: "genre",
      releaseDate: "initial_release_date",
    },
    films,
    directors: directorNodes,
  };
}
