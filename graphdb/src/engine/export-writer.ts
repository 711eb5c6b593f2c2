/**
 * Dgraph's export (`/admin` `export(input: {format})`): a namespace's data as RDF N-Quads or JSON, its DQL
 * schema and its GraphQL schema, gzipped, in a new folder `dgraph.r<ts>.u<MMDD.HHMM>` of the export
 * directory — the files Dgraph writes (`g01.rdf.gz` or `g01.json.gz`, `g01.schema.gz`,
 * `g01.gql_schema.gz`), which its live loader and this database's `bulkLoad` read back.
 *
 * It reads through ordinary queries, a predicate at a time in pages of 10,000 nodes, so an export is
 * bounded like any query and never holds more than a page of results.
 */
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { GraphEngine } from "./engine-api.ts";

export type ExportFormat = "rdf" | "json";

export interface ExportResult {
  /** The folder written, under the export directory. */
  folder: string;
  /** Paths of the files written. */
  files: string[];
}

interface PredicateSchema {
  predicate: string;
  type: string;
  list?: boolean;
  index?: boolean;
  tokenizer?: string[];
  reverse?: boolean;
  count?: boolean;
  upsert?: boolean;
  lang?: boolean;
  noconflict?: boolean;
  unique?: boolean;
}

const PAGE = 10_000;
const XS_TYPE: Readonly<Record<string, string>> = {
  int: "xs:int",
  float: "xs:float",
  bool: "xs:boolean",
  datetime: "xs:dateTime",
  geo: "geo:geojson",
  password: "xs:password",
  string: "xs:string",
  default: "xs:string",
};

const iri = (name: string) => `<${name}>`;

function literal(value: unknown, type: string, lang: string | undefined): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const quoted = JSON.stringify(text);
  if (lang) return `${quoted}@${lang}`;
  return `${quoted}^^<${XS_TYPE[type] ?? "xs:string"}>`;
}

/** One `schema {}` entry as a line of DQL schema text. */
function schemaLine(p: PredicateSchema): string {
  const type = p.list ? `[${p.type}]` : p.type;
  const parts = [`${iri(p.predicate)}:${type}`];
  if (p.index && p.tokenizer?.length) parts.push(`@index(${p.tokenizer.join(", ")})`);
  if (p.reverse) parts.push("@reverse");
  if (p.count) parts.push("@count");
  if (p.upsert) parts.push("@upsert");
  if (p.lang) parts.push("@lang");
  if (p.noconflict) parts.push("@noconflict");
  if (p.unique) parts.push("@unique");
  return `${parts.join(" ")} .`;
}

async function gzipTo(path: string, chunks: AsyncIterable<string> | Iterable<string>): Promise<void> {
  await pipeline(
    async function* () {
      for await (const chunk of chunks) yield chunk;
    },
    createGzip(),
    createWriteStream(path),
  );
}

/** Each predicate's values, a page of nodes at a time, in the namespace. */
async function* predicateRows(
  engine: GraphEngine,
  namespace: number,
  p: PredicateSchema,
): AsyncGenerator<{ uid: string; values: { value: unknown; lang?: string }[] }> {
  let after = "";
  const name = iri(p.predicate);
  for (;;) {
    const field = p.type === "uid" ? `${name} { uid }` : p.lang ? `${name}@*` : name;
    const res = await engine.query({
      namespace,
      query: `{ q(func: has(${name}), first: ${PAGE}${after ? `, after: ${after}` : ""}) { uid ${field} } }`,
      readOnly: true,
    });
    const rows = (JSON.parse(res.json) as { q?: Record<string, unknown>[] }).q ?? [];
    for (const row of rows) {
      const uid = row.uid as string;
      const values: { value: unknown; lang?: string }[] = [];
      for (const [key, raw] of Object.entries(row)) {
        if (key === "uid") continue;
        const at = key.indexOf("@");
        const lang = at >= 0 ? key.slice(at + 1) : undefined;
        for (const v of Array.isArray(raw) ? raw : [raw]) values.push({ value: v, lang: lang || undefined });
      }
      yield { uid, values };
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].uid as string;
  }
}

/** Writes the export of `namespace` into a new folder of `exportDir`. */
export async function exportNamespace(
  engine: GraphEngine,
  namespace: number,
  format: ExportFormat,
  exportDir: string,
  graphqlSchema: string | undefined,
): Promise<ExportResult> {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  const stamp = `${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}.${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}`;
  const folder = join(
    exportDir,
    `dgraph.r${engine.maxAssignedTs()}.u${stamp}.${process.hrtime.bigint() % 1000n}`,
  );
  await mkdir(folder, { recursive: true });
  const schemaRes = await engine.query({ namespace, query: "schema {}", readOnly: true });
  const schema = JSON.parse(schemaRes.json) as {
    schema?: PredicateSchema[];
    types?: { name: string; fields: { name: string }[] }[];
  };
  const predicates = (schema.schema ?? []).filter(
    (p) =>
      !p.predicate.startsWith("dgraph.") ||
      p.predicate === "dgraph.type" ||
      p.predicate.startsWith("dgraph.graphql"),
  );
  const ns = `0x${namespace.toString(16)}`;

  const dataFile = join(folder, format === "rdf" ? "g01.rdf.gz" : "g01.json.gz");
  await gzipTo(
    dataFile,
    (async function* () {
      if (format === "json") yield "[\n";
      let first = true;
      for (const p of predicates) {
        for await (const row of predicateRows(engine, namespace, p)) {
          for (const { value, lang } of row.values) {
            // The GraphQL schema's own node is exported as g01.gql_schema.gz, not as data.
            if (p.predicate === "dgraph.type" && String(value).startsWith("dgraph.")) continue;
            if (format === "rdf") {
              const object =
                p.type === "uid" ? iri((value as { uid: string }).uid) : literal(value, p.type, lang);
              yield `${iri(row.uid)} ${iri(p.predicate)} ${object} <${ns}> .\n`;
            } else {
              const key = lang ? `${p.predicate}@${lang}` : p.predicate;
              const obj = p.type === "uid" ? { uid: (value as { uid: string }).uid } : value;
              yield `${first ? "" : ",\n"}${JSON.stringify({ uid: row.uid, namespace: ns, [key]: obj })}`;
              first = false;
            }
          }
        }
      }
      if (format === "json") yield "\n]\n";
    })(),
  );
  const schemaFile = join(folder, "g01.schema.gz");
  const typeLines = (schema.types ?? [])
    .filter((t) => !t.name.startsWith("dgraph."))
    .map((t) => `type ${iri(t.name)} {\n${t.fields.map((f) => `\t${iri(f.name)}`).join("\n")}\n}`);
  await gzipTo(schemaFile, [[...predicates.map(schemaLine), ...typeLines].join("\n"), "\n"]);
  const gqlFile = join(folder, "g01.gql_schema.gz");
  await gzipTo(gqlFile, [graphqlSchema ?? ""]);
  return { folder, files: [dataFile, schemaFile, gqlFile] };
}
