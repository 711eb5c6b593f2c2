/**
 * DQL conformance: RDF and JSON mutations, deletes, auto-schema, type coercion, facets, language
 * tags, upserts and the mutate response (reference §3.1, §5).
 */
import { describe } from "vitest";
import { type Case, table } from "./harness.ts";

const UPSERT_Q = '{ q(func: eq(email, "a@b.c")) { v as uid } }';

const cases: Case[] = [
  // ---------------------------------------------------------------------------------------------
  // RDF basics
  {
    name: "rdf: the same blank node label is the same node within a request",
    schema: "name: string .\nage: int .",
    data: '_:a <name> "Alice" .\n_:a <age> "30" .',
    query: "{ q(func: uid({{a}})) { name age } }",
    expected: { q: [{ name: "Alice", age: 30 }] },
  },
  {
    name: "rdf: data.uids maps each blank label (without _:) to a new uid",
    data: [
      { set: '_:alice <name> "A" .\n_:bob <name> "B" .\n_:alice <friend> _:bob .', uids: ["alice", "bob"] },
    ],
  },
  {
    name: "rdf: a request that only uses existing uids returns empty uids",
    data: [{ set: '_:a <name> "A" .' }, { set: '<{{a}}> <name> "B" .', uids: [] }],
    query: "{ q(func: uid({{a}})) { name } }",
    expected: { q: [{ name: "B" }] },
  },
  {
    name: "rdf: <0x..> subjects address existing nodes",
    schema: "name: string .\nage: int .",
    data: [{ set: '_:a <name> "Alice" .' }, { set: '<{{a}}> <age> "31" .' }],
    query: "{ q(func: uid({{a}})) { name age } }",
    expected: { q: [{ name: "Alice", age: 31 }] },
  },
  {
    name: "rdf: decimal <N> subjects address existing nodes too",
    schema: "name: string .\nage: int .",
    data: [{ set: '_:a <name> "Alice" .' }, { set: '<{{a:dec}}> <age> "32" .' }],
    query: "{ q(func: uid({{a}})) { name age } }",
    expected: { q: [{ name: "Alice", age: 32 }] },
  },
  {
    name: 'rdf: string escapes \\" \\\\ \\n \\t \\uXXXX are decoded',
    schema: "name: string .",
    data: String.raw`_:a <name> "q\"b\\s\nn\tt\u00e9" .`,
    query: "{ q(func: uid({{a}})) { name } }",
    expected: { q: [{ name: 'q"b\\s\nn\tté' }] },
  },
  {
    name: "rdf: a subject without <> is a parse error",
    data: [{ set: 'alice <name> "Alice" .', error: "" }],
  },
  {
    name: "rdf: an untyped literal auto-creates a default predicate whose values come back as strings",
    data: '_:a <bal> "110" .',
    query: "{ q(func: uid({{a}})) { bal } }",
    expected: { q: [{ bal: "110" }] },
  },
  {
    name: "rdf: auto-schema types from literals and edges (default, typed literal, [uid])",
    data: '_:a <bal> "110" .\n_:a <n> "7"^^<xs:int> .\n_:a <friend> _:b .\n_:b <bal> "1" .',
    query: "schema(pred: [bal, n, friend]) { type list }",
    expected: {
      schema: [
        { predicate: "bal", type: "default" },
        { predicate: "friend", type: "uid", list: true },
        { predicate: "n", type: "int" },
      ],
    },
  },
  {
    name: "rdf: typed literals ^^<xs:...> set the auto-schema type",
    data: [
      '_:a <i> "30"^^<xs:int> .',
      '_:a <ii> "7"^^<xs:integer> .',
      '_:a <b> "true"^^<xs:boolean> .',
      '_:a <f> "1.5"^^<xs:float> .',
      '_:a <d> "2.5"^^<xs:double> .',
      '_:a <dt> "2020-01-02T03:04:05Z"^^<xs:dateTime> .',
      '_:a <day> "2020-01-02"^^<xs:date> .',
      '_:a <s> "x"^^<xs:string> .',
      '_:a <full> "9"^^<http://www.w3.org/2001/XMLSchema#int> .',
    ].join("\n"),
    query: "schema(pred: [i, ii, b, f, d, dt, day, s, full]) { type }",
    expected: {
      schema: [
        { predicate: "b", type: "bool" },
        { predicate: "d", type: "float" },
        { predicate: "day", type: "datetime" },
        { predicate: "dt", type: "datetime" },
        { predicate: "f", type: "float" },
        { predicate: "full", type: "int" },
        { predicate: "i", type: "int" },
        { predicate: "ii", type: "int" },
        { predicate: "s", type: "string" },
      ],
    },
  },
  {
    name: "rdf: typed literal values come back typed",
    data: [
      '_:a <i> "30"^^<xs:int> .',
      '_:a <b> "true"^^<xs:boolean> .',
      '_:a <f> "1.5"^^<xs:float> .',
      '_:a <dt> "2020-01-02T03:04:05Z"^^<xs:dateTime> .',
      '_:a <day> "2020-01-02"^^<xs:date> .',
      '_:a <s> "x"^^<xs:string> .',
    ].join("\n"),
    query: "{ q(func: uid({{a}})) { i b f dt day s } }",
    expected: {
      q: [{ i: 30, b: true, f: 1.5, dt: "2020-01-02T03:04:05Z", day: "2020-01-02T00:00:00Z", s: "x" }],
    },
  },
  {
    name: "rdf: an unknown ^^ type is rejected",
    data: [{ set: '_:a <x> "1"^^<xs:foo> .', error: "nrecognized rdf type" }],
  },
  {
    name: "rdf: datetime literals in short forms are stored as full RFC 3339",
    schema: "d1: datetime .\nd2: datetime .\nd3: datetime .\nd4: datetime .",
    data: '_:a <d1> "2006" .\n_:a <d2> "2006-01" .\n_:a <d3> "2006-01-02" .\n_:a <d4> "2006-01-02T15:04:05" .',
    query: "{ q(func: uid({{a}})) { d1 d2 d3 d4 } }",
    expected: {
      q: [
        {
          d1: "2006-01-01T00:00:00Z",
          d2: "2006-01-01T00:00:00Z",
          d3: "2006-01-02T00:00:00Z",
          d4: "2006-01-02T15:04:05Z",
        },
      ],
    },
  },
  {
    // inferred: Dgraph stores the zone offset with the time and Go's MarshalJSON prints it back.
    name: "rdf: a datetime with a zone offset keeps the offset",
    schema: "d: datetime .",
    data: '_:a <d> "2006-01-02T15:04:05+05:30" .',
    query: "{ q(func: uid({{a}})) { d } }",
    expected: { q: [{ d: "2006-01-02T15:04:05+05:30" }] },
  },
  {
    name: "rdf: @lang values are stored per language",
    schema: "name: string @lang .",
    data: '_:a <name> "Alice" .\n_:a <name> "Alicia"@es .\n_:a <name> "Alice FR"@fr .',
    query: "{ q(func: uid({{a}})) { name name@es name@fr } }",
    expected: { q: [{ name: "Alice", "name@es": "Alicia", "name@fr": "Alice FR" }] },
  },
  {
    name: "rdf: a language tag on a predicate without @lang is rejected",
    schema: "name: string .",
    data: [
      {
        set: '_:a <name> "Alice"@en .',
        error: "Attr: [name] should have @lang directive in schema to mutate edge",
      },
    ],
  },
  {
    name: "rdf: facets on an edge are stored and returned inside the child as pred|facet",
    schema: "name: string .\nfriend: [uid] .",
    data: '_:a <name> "A" .\n_:b <name> "B" .\n_:a <friend> _:b (since=2006-01-02T15:04:05, close=true, weight=0.5, n=3, note="old pal") .',
    query: "{ q(func: uid({{a}})) { friend @facets { name } } }",
    expected: {
      q: [
        {
          friend: [
            {
              name: "B",
              "friend|since": "2006-01-02T15:04:05Z",
              "friend|close": true,
              "friend|weight": 0.5,
              "friend|n": 3,
              "friend|note": "old pal",
            },
          ],
        },
      ],
    },
  },
  {
    name: "rdf: facets on a value are returned as a sibling key pred|facet",
    schema: "name: string .",
    data: '_:a <name> "Alice" (src="wiki") .',
    query: "{ q(func: uid({{a}})) { name @facets(src) } }",
    expected: { q: [{ name: "Alice", "name|src": "wiki" }] },
  },
  {
    name: "rdf: setting a non-list predicate again replaces the value",
    schema: "name: string .",
    data: [{ set: '_:a <name> "A" .' }, { set: '<{{a}}> <name> "B" .' }],
    query: "{ q(func: uid({{a}})) { name } }",
    expected: { q: [{ name: "B" }] },
  },
  {
    name: "rdf: a list predicate accumulates values across mutations",
    schema: "tags: [string] .",
    data: [{ set: '_:a <tags> "x" .' }, { set: '<{{a}}> <tags> "y" .\n<{{a}}> <tags> "x" .' }],
    query: "{ q(func: uid({{a}})) { tags } }",
    unorderedScalars: true,
    expected: { q: [{ tags: ["x", "y"] }] },
  },

  // ---------------------------------------------------------------------------------------------
  // RDF deletes
  {
    name: "rdf delete: S P value removes one value of a list",
    schema: "tags: [string] .",
    data: [{ set: '_:a <tags> "x" .\n_:a <tags> "y" .' }, { del: '<{{a}}> <tags> "x" .' }],
    query: "{ q(func: uid({{a}})) { tags } }",
    expected: { q: [{ tags: ["y"] }] },
  },
  {
    name: "rdf delete: S P O removes one edge",
    schema: "name: string .\nfriend: [uid] .",
    data: [
      { set: '_:a <name> "A" .\n_:b <name> "B" .\n_:c <name> "C" .\n_:a <friend> _:b .\n_:a <friend> _:c .' },
      { del: "<{{a}}> <friend> <{{b}}> ." },
    ],
    query: "{ q(func: uid({{a}})) { friend { name } } }",
    expected: { q: [{ friend: [{ name: "C" }] }] },
  },
  {
    name: "rdf delete: S P * removes all values of the predicate",
    schema: "name: string .\nage: int .",
    data: [{ set: '_:a <name> "A" .\n_:a <age> "3" .' }, { del: "<{{a}}> <name> * ." }],
    query: "{ q(func: uid({{a}})) { name age } }",
    expected: { q: [{ age: 3 }] },
  },
  {
    name: "rdf delete: S P * on a [uid] predicate removes every edge (key absent afterwards)",
    schema: "name: string .\nfriend: [uid] .",
    data: [
      { set: '_:a <name> "A" .\n_:b <name> "B" .\n_:c <name> "C" .\n_:a <friend> _:b .\n_:a <friend> _:c .' },
      { del: "<{{a}}> <friend> * ." },
    ],
    query: "{ q(func: uid({{a}})) { name friend { name } } }",
    expected: { q: [{ name: "A" }] },
  },
  {
    name: "rdf delete: after S P * of its only predicate the node drops out of uid() results",
    schema: "name: string .",
    data: [{ set: '_:a <name> "A" .' }, { del: "<{{a}}> <name> * ." }],
    query: "{ q(func: uid({{a}})) { name } }",
    expected: { q: [] },
  },
  {
    name: "rdf delete: S * * removes the predicates of the node's types and dgraph.type, nothing else",
    schema: "name: string .\nage: int .\nextra: string .\ntype Person {\n  name\n  age\n}",
    data: [
      { set: '_:a <name> "A" .\n_:a <age> "3" .\n_:a <extra> "kept" .\n_:a <dgraph.type> "Person" .' },
      { del: "<{{a}}> * * ." },
    ],
    query: "{ q(func: uid({{a}})) { name age extra dgraph.type } }",
    expected: { q: [{ extra: "kept" }] },
  },
  {
    name: "rdf delete: S * * on a node without dgraph.type deletes nothing",
    schema: "name: string .",
    data: [{ set: '_:a <name> "A" .' }, { del: "<{{a}}> * * ." }],
    query: "{ q(func: uid({{a}})) { name } }",
    expected: { q: [{ name: "A" }] },
  },
  {
    name: "rdf delete: deletes are applied before sets in the same mutation",
    schema: "name: string .",
    data: [{ set: '_:a <name> "Old" .' }, { set: '<{{a}}> <name> "New" .', del: "<{{a}}> <name> * ." }],
    query: "{ q(func: uid({{a}})) { name } }",
    expected: { q: [{ name: "New" }] },
  },
  {
    name: "rdf delete: other star patterns are rejected",
    data: [
      { set: '_:a <name> "A" .' },
      { del: '<{{a}}> * "A" .', error: "Only valid wildcard delete patterns are 'S * *' and 'S P *'" },
    ],
  },
  {
    name: "rdf: a star in a set N-Quad is rejected",
    data: [
      { set: '_:a <name> "A" .' },
      { set: "<{{a}}> <name> * .", error: "Cannot use star in set n-quad" },
    ],
  },
  {
    name: "rdf delete: deleting a value updates the index",
    schema: "name: string @index(exact) .",
    data: [{ set: '_:a <name> "A" .' }, { del: '<{{a}}> <name> "A" .' }],
    query: '{ q(func: eq(name, "A")) { uid } }',
    expected: { q: [] },
  },

  // ---------------------------------------------------------------------------------------------
  // type checks and coercion to the schema type
  {
    name: "coercion: an untyped RDF literal is converted to the declared int type",
    schema: "age: int @index(int) .",
    data: '_:a <age> "42" .',
    query: "{ q(func: eq(age, 42)) { age } }",
    expected: { q: [{ age: 42 }] },
  },
  {
    name: "coercion: a JSON string is converted to the declared int/bool/datetime type",
    schema: "age: int .\nok: bool .\nwhen: datetime .",
    json: { uid: "_:a", age: "42", ok: "true", when: "2020-05-06" },
    query: "{ q(func: uid({{a}})) { age ok when } }",
    expected: { q: [{ age: 42, ok: true, when: "2020-05-06T00:00:00Z" }] },
  },
  {
    name: "coercion: a JSON number into a string predicate is stored as its text",
    schema: "name: string .",
    json: { uid: "_:a", name: 5 },
    query: "{ q(func: uid({{a}})) { name } }",
    expected: { q: [{ name: "5" }] },
  },
  {
    name: "coercion: impossible int conversion fails with Go's ParseInt error",
    schema: "age: int .",
    data: [{ set: '_:a <age> "abc" .', error: 'strconv.ParseInt: parsing "abc": invalid syntax' }],
  },
  {
    name: "coercion: impossible bool conversion from JSON fails with Go's ParseBool error",
    schema: "ok: bool .",
    data: [{ setJson: { uid: "_:a", ok: "yes" }, error: 'strconv.ParseBool: parsing "yes": invalid syntax' }],
  },
  {
    name: "type check: a scalar into a uid predicate is rejected",
    schema: "friend: [uid] .",
    data: [{ set: '_:a <friend> "Bob" .', error: 'Input for predicate "friend" of type uid is scalar' }],
  },
  {
    name: "type check: an edge into a scalar predicate is rejected",
    schema: "name: string .",
    data: [{ set: "_:a <name> _:b .", error: 'Input for predicate "name" of type scalar is uid' }],
  },
  {
    name: "geo values are stored and returned as GeoJSON",
    schema: "loc: geo .",
    json: { uid: "_:a", loc: { type: "Point", coordinates: [1.5, 2.5] } },
    query: "{ q(func: uid({{a}})) { loc } }",
    expected: { q: [{ loc: { type: "Point", coordinates: [1.5, 2.5] } }] },
  },
  {
    name: "password values are never returned",
    schema: "name: string .\npw: password .",
    data: '_:a <name> "A" .\n_:a <pw> "secret123" .',
    query: "{ q(func: uid({{a}})) { name pw } }",
    expected: { q: [{ name: "A" }] },
  },
  {
    name: "checkpwd(pred, right password) is a checkpwd(pred): true field",
    schema: "name: string .\npw: password .",
    data: '_:a <name> "A" .\n_:a <pw> "secret123" .',
    query: '{ q(func: uid({{a}})) { name checkpwd(pw, "secret123") } }',
    expected: { q: [{ name: "A", "checkpwd(pw)": true }] },
  },
  {
    name: "checkpwd(pred, wrong password) is false",
    schema: "name: string .\npw: password .",
    data: '_:a <name> "A" .\n_:a <pw> "secret123" .',
    query: '{ q(func: uid({{a}})) { checkpwd(pw, "nope1234") } }',
    expected: { q: [{ "checkpwd(pw)": false }] },
  },

  // ---------------------------------------------------------------------------------------------
  // JSON mutations
  {
    name: "json: a nested object creates a node and an edge; a single object is a non-list uid",
    json: { uid: "_:a", name: "A", best: { uid: "_:b", name: "B" } },
    query: "{ q(func: uid({{a}})) { name best { name } } }",
    expected: { q: [{ name: "A", best: { name: "B" } }] },
  },
  {
    name: "json: auto-schema infers string/int/float/bool, uid for an object and lists for arrays",
    data: [
      {
        setJson:
          '{"uid":"_:a","s":"x","i":3,"f":2.0,"b":true,"one":{"name":"n"},"many":[{"name":"m"}],"tags":["p","q"]}',
      },
    ],
    query: "schema(pred: [s, i, f, b, one, many, tags]) { type list }",
    expected: {
      schema: [
        { predicate: "b", type: "bool" },
        { predicate: "f", type: "float" },
        { predicate: "i", type: "int" },
        { predicate: "many", type: "uid", list: true },
        { predicate: "one", type: "uid" },
        { predicate: "s", type: "string" },
        { predicate: "tags", type: "string", list: true },
      ],
    },
  },
  {
    name: "json: an array of nested objects becomes a [uid] list returned as an array",
    json: {
      uid: "_:a",
      name: "A",
      friend: [
        { uid: "_:b", name: "B" },
        { uid: "_:c", name: "C" },
      ],
    },
    query: "{ q(func: uid({{a}})) { friend (orderasc: name) { name } } }",
    expected: { q: [{ friend: [{ name: "B" }, { name: "C" }] }] },
  },
  {
    name: "json: an array of scalars is a list of values",
    json: { uid: "_:a", tags: ["x", "y", "z"] },
    query: "{ q(func: uid({{a}})) { tags } }",
    unorderedScalars: true,
    expected: { q: [{ tags: ["x", "y", "z"] }] },
  },
  {
    name: "json: blank uids are reported in data.uids without _:",
    data: [
      {
        setJson: { uid: "_:alice", name: "A", friend: [{ uid: "_:bob", name: "B" }] },
        uids: ["alice", "bob"],
      },
    ],
  },
  {
    name: "json: objects without uid get generated dg.<n>.<n> labels in data.uids",
    data: [{ setJson: [{ name: "A" }, { name: "B" }], uidsMatch: [/^dg\.\d+\.\d+$/, /^dg\.\d+\.\d+$/] }],
  },
  {
    name: "json: a top-level array of objects creates every node",
    json: [
      { uid: "_:a", name: "A" },
      { uid: "_:b", name: "B" },
    ],
    query: "{ a(func: uid({{a}})) { name } b(func: uid({{b}})) { name } }",
    expected: { a: [{ name: "A" }], b: [{ name: "B" }] },
  },
  {
    name: "json: a uid reference adds to an existing node and links to existing nodes",
    data: [
      { set: '_:a <name> "A" .\n_:b <name> "B" .' },
      { setJson: { uid: "{{a}}", age: 5, friend: [{ uid: "{{b}}" }] } },
    ],
    query: "{ q(func: uid({{a}})) { name age friend { name } } }",
    expected: { q: [{ name: "A", age: 5, friend: [{ name: "B" }] }] },
  },
  {
    name: "json: dgraph.type as a string makes type() find the node",
    schema: "name: string .\ntype Person {\n  name\n}",
    json: { uid: "_:a", "dgraph.type": "Person", name: "A" },
    query: "{ q(func: type(Person)) { name dgraph.type } }",
    expected: { q: [{ name: "A", "dgraph.type": ["Person"] }] },
  },
  {
    name: "json: dgraph.type as an array gives several types",
    json: { uid: "_:a", "dgraph.type": ["A", "B"], name: "x" },
    query: "{ a(func: type(A)) { name } b(func: type(B)) { dgraph.type } }",
    unorderedScalars: true,
    expected: { a: [{ name: "x" }], b: [{ "dgraph.type": ["A", "B"] }] },
  },
  {
    name: "json: null values are ignored in set",
    json: { uid: "_:a", name: "A", age: null },
    query: "{ q(func: uid({{a}})) { name age } }",
    expected: { q: [{ name: "A" }] },
  },
  {
    name: "json: language keys name@en set tagged values",
    schema: "name: string @lang .",
    json: { uid: "_:a", name: "plain", "name@en": "english" },
    query: "{ q(func: uid({{a}})) { name name@en } }",
    expected: { q: [{ name: "plain", "name@en": "english" }] },
  },
  {
    name: "json: pred|facet keys set facets on values",
    schema: "name: string .",
    json: { uid: "_:a", name: "A", "name|src": "wiki" },
    query: "{ q(func: uid({{a}})) { name @facets } }",
    expected: { q: [{ name: "A", "name|src": "wiki" }] },
  },
  {
    name: "json: pred|facet keys inside a nested object set facets on the edge",
    schema: "name: string .\nfriend: [uid] .",
    json: { uid: "_:a", name: "A", friend: [{ uid: "_:b", name: "B", "friend|close": true }] },
    query: "{ q(func: uid({{a}})) { friend @facets(close) { name } } }",
    expected: { q: [{ friend: [{ name: "B", "friend|close": true }] }] },
  },
  {
    name: "json delete: null deletes all values of the predicate (S P *)",
    schema: "name: string .\nage: int .",
    data: [{ set: '_:a <name> "A" .\n_:a <age> "3" .' }, { deleteJson: { uid: "{{a}}", name: null } }],
    query: "{ q(func: uid({{a}})) { name age } }",
    expected: { q: [{ age: 3 }] },
  },
  {
    name: "json delete: null on a uid predicate deletes all its edges",
    schema: "name: string .\nfriend: [uid] .",
    data: [
      { set: '_:a <name> "A" .\n_:b <name> "B" .\n_:a <friend> _:b .' },
      { deleteJson: { uid: "{{a}}", friend: null } },
    ],
    query: "{ q(func: uid({{a}})) { name friend { name } } }",
    expected: { q: [{ name: "A" }] },
  },
  {
    name: "json delete: a value deletes just that value",
    schema: "tags: [string] .",
    data: [{ set: '_:a <tags> "x" .\n_:a <tags> "y" .' }, { deleteJson: { uid: "{{a}}", tags: "x" } }],
    query: "{ q(func: uid({{a}})) { tags } }",
    expected: { q: [{ tags: ["y"] }] },
  },
  {
    name: "json delete: a nested {uid} deletes that edge only",
    schema: "name: string .\nfriend: [uid] .",
    data: [
      { set: '_:a <name> "A" .\n_:b <name> "B" .\n_:c <name> "C" .\n_:a <friend> _:b .\n_:a <friend> _:c .' },
      { deleteJson: { uid: "{{a}}", friend: [{ uid: "{{b}}" }] } },
    ],
    query: "{ q(func: uid({{a}})) { friend { name } } }",
    expected: { q: [{ friend: [{ name: "C" }] }] },
  },
  {
    name: "json delete: an object with only uid deletes the node's typed predicates (S * *)",
    schema: "name: string .\nage: int .\ntype Person {\n  name\n  age\n}",
    data: [
      { set: '_:a <name> "A" .\n_:a <age> "3" .\n_:a <dgraph.type> "Person" .' },
      { deleteJson: { uid: "{{a}}" } },
    ],
    query: "{ q(func: uid({{a}})) { name age dgraph.type } }",
    expected: { q: [] },
  },
  {
    name: "json delete: an object without uid is rejected",
    data: [{ deleteJson: { name: "A" }, error: "UID must be present and non-zero while deleting edges" }],
  },
  {
    name: "json: an empty object or array is a no-op",
    data: [
      { setJson: {}, uids: [] },
      { setJson: [], uids: [] },
    ],
    query: "{ q(func: has(name)) { uid } }",
    expected: { q: [] },
  },

  // ---------------------------------------------------------------------------------------------
  // upserts
  {
    name: "upsert: @if(eq(len(v), 0)) creates the node only when the query found nothing",
    schema: "email: string @index(exact) @upsert .\nname: string .",
    data: [
      {
        upsert: UPSERT_Q,
        cond: "@if(eq(len(v), 0))",
        set: '_:n <email> "a@b.c" .\n_:n <name> "First" .',
        queries: { q: [] },
      },
      { upsert: UPSERT_Q, cond: "@if(eq(len(v), 0))", set: '_:n <email> "a@b.c" .\n_:n <name> "Second" .' },
    ],
    query: '{ q(func: eq(email, "a@b.c")) { name } }',
    expected: { q: [{ name: "First" }] },
  },
  {
    name: "upsert: data.queries holds the upsert query's result",
    schema: "email: string @index(exact) @upsert .\nname: string .",
    data: [
      { set: '_:x <email> "a@b.c" .' },
      {
        upsert: UPSERT_Q,
        cond: "@if(gt(len(v), 0))",
        set: 'uid(v) <name> "Found" .',
        queries: { q: [{ uid: "{{x}}" }] },
        uids: [],
      },
    ],
    query: '{ q(func: eq(email, "a@b.c")) { name } }',
    expected: { q: [{ name: "Found" }] },
  },
  {
    name: "upsert: uid(v) on an empty variable creates one node keyed uid(v) in data.uids",
    schema: "email: string @index(exact) @upsert .\nname: string .",
    data: [{ upsert: UPSERT_Q, set: 'uid(v) <email> "a@b.c" .\nuid(v) <name> "New" .', uids: ["uid(v)"] }],
    query: '{ q(func: eq(email, "a@b.c")) { name } }',
    expected: { q: [{ name: "New" }] },
  },
  {
    name: "upsert: a false @if skips the mutation",
    schema: "email: string @index(exact) @upsert .\nname: string .",
    data: [{ upsert: UPSERT_Q, cond: "@if(gt(len(v), 0))", set: '_:n <email> "a@b.c" .', uids: [] }],
    query: '{ q(func: eq(email, "a@b.c")) { uid } }',
    expected: { q: [] },
  },
  {
    name: "upsert: uid(v) expands to every uid of the variable and val(x) substitutes per subject",
    schema: "name: string .\nage: int @index(int) .\ncopy: int .",
    data: [
      { set: '_:a <age> "10" .\n_:b <age> "20" .' },
      { upsert: "{ q(func: has(age)) { v as uid  a as age } }", set: "uid(v) <copy> val(a) ." },
    ],
    query: "{ q(func: has(age), orderasc: age) { copy } }",
    expected: { q: [{ copy: 10 }, { copy: 20 }] },
  },
  {
    name: "upsert: delete through uid(v)",
    schema: "email: string @index(exact) @upsert .\nname: string .",
    data: [
      { set: '_:x <email> "a@b.c" .\n_:x <name> "A" .' },
      { upsert: UPSERT_Q, del: "uid(v) <name> * ." },
    ],
    query: '{ q(func: eq(email, "a@b.c")) { email name } }',
    expected: { q: [{ email: "a@b.c" }] },
  },
  {
    name: "upsert: @if with and/not combinations",
    schema: "email: string @index(exact) @upsert .\nname: string .",
    data: [
      { set: '_:x <email> "a@b.c" .' },
      { upsert: UPSERT_Q, cond: "@if(eq(len(v), 1) AND NOT eq(len(v), 0))", set: 'uid(v) <name> "Yes" .' },
    ],
    query: '{ q(func: eq(email, "a@b.c")) { name } }',
    expected: { q: [{ name: "Yes" }] },
  },
];

describe("conformance: mutations", () => {
  table(cases);
});
