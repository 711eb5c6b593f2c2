import type { AppWorld, WitType, WitTypeDef } from "../../src/wit/wit-types.ts";

/** A world that uses every WIT type kind the GraphQL layer maps. */
const prim = (name: Extract<WitType, { kind: "prim" }>["name"]): WitType => ({ kind: "prim", name });
const ref = (name: string): WitType => ({ kind: "ref", name });
const option = (of: WitType): WitType => ({ kind: "option", of });
const list = (of: WitType): WitType => ({ kind: "list", of });
const result = (ok?: WitType): WitType => ({ kind: "result", ...(ok ? { ok } : {}), err: prim("string") });

const types: WitTypeDef[] = [
  { kind: "enum", name: "color", cases: ["red", "dark-green", "blue"] },
  {
    kind: "record",
    name: "person",
    docs: "A person in the address book.",
    fields: [
      { name: "id", type: prim("s64") },
      { name: "first-name", type: prim("string") },
      { name: "age", type: prim("u8") },
      { name: "nickname", type: option(prim("string")) },
      { name: "tags", type: list(prim("string")) },
      { name: "favorite-color", type: ref("color") },
      { name: "address", type: option(ref("address")) },
    ],
  },
  {
    kind: "record",
    name: "address",
    fields: [
      { name: "street", type: prim("string") },
      { name: "city", type: prim("string") },
    ],
  },
  { kind: "record", name: "marker", fields: [] },
  {
    kind: "record",
    name: "measurements",
    fields: [
      { name: "count", type: prim("u32") },
      { name: "big", type: prim("u64") },
      { name: "ratio", type: prim("f32") },
      { name: "precise", type: prim("f64") },
      { name: "small", type: prim("s8") },
      { name: "mid", type: prim("s16") },
      { name: "int", type: prim("s32") },
      { name: "word", type: prim("u16") },
      { name: "flag", type: prim("bool") },
      { name: "initial", type: prim("char") },
    ],
  },
  { kind: "record", name: "unused", fields: [{ name: "x", type: prim("string") }] },
];

export const fixtureWorld: AppWorld = {
  types: new Map(types.map((t) => [t.name, t])),
  functions: [
    {
      name: "get-person",
      docs: "Finds a person by id.",
      params: [{ name: "id", type: prim("s64") }],
      result: result(option(ref("person"))),
    },
    { name: "list-people", params: [], result: result(list(ref("person"))) },
    {
      name: "add-person",
      docs: "Adds a person.\nReturns the stored person.",
      params: [{ name: "person", type: ref("person") }],
      result: result(ref("person")),
    },
    {
      name: "additional-posts",
      params: [{ name: "count", type: prim("u32") }],
      result: list(prim("string")),
    },
    { name: "add", params: [], result: result() },
    { name: "getter", params: [], result: prim("string") },
    {
      name: "echo-measurements",
      params: [{ name: "m", type: ref("measurements") }],
      result: ref("measurements"),
    },
    {
      name: "pair-up",
      params: [
        { name: "a", type: prim("string") },
        { name: "b", type: prim("s32") },
      ],
      result: { kind: "tuple", of: [prim("string"), prim("s32")] },
    },
    {
      name: "split-pair",
      params: [{ name: "p", type: { kind: "tuple", of: [prim("string"), option(prim("s32"))] } }],
      result: list(option(prim("string"))),
    },
    { name: "ping", params: [] },
    { name: "_internal-reset", params: [] },
    { name: "-internal-flush", params: [] },
    {
      name: "delete-everything",
      params: [
        { name: "confirm", type: prim("bool") },
        { name: "colors", type: option(list(ref("color"))) },
      ],
      result: result(prim("u64")),
    },
    { name: "mark", params: [{ name: "m", type: ref("marker") }], result: ref("marker") },
  ],
};
