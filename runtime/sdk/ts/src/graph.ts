/// <reference path="./host.d.ts" />
/** DQL on the app's `graphdb` connections: queries, mutations (upserts when a query is given) and schema. */
import { graphAlter, graphMutate, graphQuery } from "trellis:app/host";
import { toJsonText } from "./json-text.ts";

/** DQL variables; names may be given with or without the leading `$`. */
export type Vars = Record<string, string | number | boolean | bigint>;

export interface Mutation {
  setJson?: unknown;
  deleteJson?: unknown;
  setNquads?: string;
  delNquads?: string;
  /** An upsert condition such as `@if(eq(len(u), 0))`. */
  cond?: string;
}

export interface MutateRequest extends Mutation {
  /** An upsert block's query; its variables can be used in the mutations. */
  query?: string;
  vars?: Vars;
  /** Several mutations committed together (the single-mutation fields above are added first). */
  mutations?: Mutation[];
}

export interface MutateResult<T = unknown> {
  /** The upsert query's data, or null. */
  json: T | null;
  /** Blank-node label → assigned uid. */
  uids: Record<string, string>;
}

export function query<T = unknown>(connection: string, dql: string, vars: Vars = {}): T {
  return JSON.parse(graphQuery(connection, dql, toJsonText(dqlVars(vars)))) as T;
}

export function mutate<T = unknown>(connection: string, request: MutateRequest): MutateResult<T> {
  const { query: upsertQuery, vars, mutations = [], ...single } = request;
  const all = Object.values(single).some((v) => v !== undefined) ? [single, ...mutations] : mutations;
  const body = {
    ...(upsertQuery ? { query: upsertQuery } : {}),
    ...(vars ? { vars: dqlVars(vars) } : {}),
    mutations: all,
  };
  return JSON.parse(graphMutate(connection, toJsonText(body))) as MutateResult<T>;
}

/** Applies DQL schema text, e.g. `name: string @index(term) .` */
export function alter(connection: string, schema: string): void {
  graphAlter(connection, schema);
}

function dqlVars(vars: Vars): Record<string, string> {
  return Object.fromEntries(
    Object.entries(vars).map(([k, v]) => [k.startsWith("$") ? k : `$${k}`, String(v)]),
  );
}
