/**
 * What the generated API and the DQL rewriting need to know about each type of an input schema: its
 * stored name, its fields with their predicates, identifiers (`ID`, `@id`), searches and inverse edges.
 * Built once per schema from the input SDL (after `extend type` became `@extends`).
 */
import {
  type ConstDirectiveNode,
  type ConstValueNode,
  type DocumentNode,
  type FieldDefinitionNode,
  Kind,
  type TypeNode,
} from "graphql";
import { DEFAULT_SEARCH } from "./search-indexes.ts";

export type FieldKind = "id" | "scalar" | "enum" | "geo" | "object" | "interface" | "union";

export interface FieldModel {
  readonly name: string;
  /** The innermost named type (`Post` for `[Post!]!`). */
  readonly typeName: string;
  readonly kind: FieldKind;
  readonly list: boolean;
  /** `!` on the outer type. */
  readonly nonNull: boolean;
  /** `!` on list elements. */
  readonly elementNonNull: boolean;
  /** The type as written, e.g. `[Post!]!`. */
  readonly typeText: string;
  /** The DQL predicate (`Author.name`, or `@dgraph(pred:)`); "" for ID fields and custom fields. */
  readonly predicate: string;
  /** `@dgraph(pred: "~p")`: read through the reverse of `p`, never written. */
  readonly reverse: boolean;
  /** `@dgraph(pred: "p@en")`: a language-tagged value; several languages (`p@en:fr`) make it read-only. */
  readonly lang: string | undefined;
  /** `@id`: an external unique key. */
  readonly xid: boolean;
  /** `@id(interface: true)`: unique across all implementers. */
  readonly xidInterface: boolean;
  /** `@search` arguments, defaults applied; empty when the field is not searchable. */
  readonly search: readonly string[];
  /** `@hasInverse(field:)` on either side: the field of the target type holding the other direction. */
  inverse: string | undefined;
  /** `@custom` or `@lambda`: resolved elsewhere, not stored. */
  readonly custom: boolean;
  readonly lambda: boolean;
  /** `@external` (federation). */
  readonly external: boolean;
  /**
   * The `ID` key of an extended type (federation): its value comes from the owning service, so it is
   * stored as a string predicate rather than being the node's uid.
   */
  readonly storedId: boolean;
  /** An `@external` field named by some `@provides`: this service stores and serves it. */
  provided: boolean;
  /** Where it was declared: the interface it is inherited from, or the type itself. */
  readonly declaredIn: string;
  readonly line: number;
  readonly column: number;
  readonly node: FieldDefinitionNode;
}

export type TypeKind = "object" | "interface" | "union";

export interface GenerateFlags {
  get: boolean;
  query: boolean;
  password: boolean;
  aggregate: boolean;
  add: boolean;
  update: boolean;
  delete: boolean;
  subscription: boolean;
}

export interface TypeModel {
  readonly name: string;
  readonly kind: TypeKind;
  /** `dgraph.type` value and predicate prefix (`@dgraph(type:)` or the name). */
  readonly dgraphType: string;
  readonly interfaces: readonly string[];
  /** Own and inherited fields, in declaration order (interface fields first, as Dgraph copies them). */
  readonly fields: readonly FieldModel[];
  /** Union members. */
  readonly members: readonly string[];
  /** `@remote`: not stored, no API. */
  readonly remote: boolean;
  /** `@extends` or `extend type` (federation). */
  readonly extended: boolean;
  /** `@key(fields:)`. */
  readonly key: string | undefined;
  readonly generate: GenerateFlags;
  /** `@secret(field:, pred:)`. */
  readonly secret: { field: string; predicate: string } | undefined;
  readonly withSubscription: boolean;
  readonly line: number;
}

export interface SchemaModel {
  readonly types: ReadonlyMap<string, TypeModel>;
  readonly enums: ReadonlySet<string>;
  /** Types in input order (objects, interfaces, unions that are stored). */
  readonly order: readonly string[];
}

const GEO = new Set(["Point", "Polygon", "MultiPolygon"]);
const SCALARS = new Set(["String", "Int", "Int64", "Float", "Boolean", "DateTime"]);

export function directive(
  node: { readonly directives?: readonly ConstDirectiveNode[] },
  name: string,
): ConstDirectiveNode | undefined {
  return node.directives?.find((d) => d.name.value === name);
}

export function argument(d: ConstDirectiveNode | undefined, name: string): ConstValueNode | undefined {
  return d?.arguments?.find((a) => a.name.value === name)?.value;
}

export function stringArgument(d: ConstDirectiveNode | undefined, name: string): string | undefined {
  const v = argument(d, name);
  return v?.kind === Kind.STRING ? v.value : undefined;
}

/** A name given quoted or bare (Dgraph accepts `@hasInverse(field: posts)`, which GraphQL parses as an enum). */
function nameArgument(d: ConstDirectiveNode | undefined, name: string): string | undefined {
  const v = argument(d, name);
  return v?.kind === Kind.STRING || v?.kind === Kind.ENUM ? v.value : undefined;
}

function booleanArgument(d: ConstDirectiveNode | undefined, name: string): boolean | undefined {
  const v = argument(d, name);
  return v?.kind === Kind.BOOLEAN ? v.value : undefined;
}

export function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}

export function typeText(type: TypeNode): string {
  if (type.kind === Kind.NAMED_TYPE) return type.name.value;
  if (type.kind === Kind.LIST_TYPE) return `[${typeText(type.type)}]`;
  return `${typeText(type.type)}!`;
}

function shape(type: TypeNode): { list: boolean; nonNull: boolean; elementNonNull: boolean } {
  const nonNull = type.kind === Kind.NON_NULL_TYPE;
  const inner = nonNull ? type.type : type;
  if (inner.kind !== Kind.LIST_TYPE) return { list: false, nonNull, elementNonNull: false };
  return { list: true, nonNull, elementNonNull: inner.type.kind === Kind.NON_NULL_TYPE };
}

/** `@search(by: [...])` with Dgraph's defaults; `@id` adds `hash` to a String with no hash/exact. */
function searchArguments(field: FieldDefinitionNode, kind: FieldKind, typeName: string): string[] {
  const d = directive(field, "search");
  const xid = directive(field, "id") !== undefined;
  let args: string[] = [];
  if (d !== undefined) {
    const by = argument(d, "by");
    if (by?.kind === Kind.LIST)
      args = by.values.flatMap((v) => (v.kind === Kind.STRING || v.kind === Kind.ENUM ? [v.value] : []));
    else if (by?.kind === Kind.STRING || by?.kind === Kind.ENUM) args = [by.value];
    if (args.length === 0) {
      const def = DEFAULT_SEARCH.get(kind === "enum" ? "enum" : typeName);
      if (def !== undefined) args = [def];
    }
  } else if (kind === "enum") {
    args = [];
  }
  if (xid) {
    if (typeName === "String" && !args.includes("hash") && !args.includes("exact")) args = ["hash", ...args];
    if ((typeName === "Int" || typeName === "Int64") && args.length === 0)
      args = [typeName === "Int" ? "int" : "int64"];
  }
  return args;
}

function generateFlags(d: ConstDirectiveNode | undefined): GenerateFlags {
  const flags: GenerateFlags = {
    get: true,
    query: true,
    password: true,
    aggregate: true,
    add: true,
    update: true,
    delete: true,
    subscription: false,
  };
  if (d === undefined) return flags;
  for (const group of ["query", "mutation"] as const) {
    const v = argument(d, group);
    if (v?.kind !== Kind.OBJECT) continue;
    for (const f of v.fields) {
      const key = f.name.value as keyof GenerateFlags;
      if (key in flags && f.value.kind === Kind.BOOLEAN) flags[key] = f.value.value;
    }
  }
  const sub = booleanArgument(d, "subscription");
  if (sub !== undefined) flags.subscription = sub;
  return flags;
}

/** Builds the model of every object, interface and union of `doc`. */
export function buildTypeModel(doc: DocumentNode): SchemaModel {
  const enums = new Set<string>();
  const kinds = new Map<string, TypeKind>();
  const remote = new Set<string>();
  for (const def of doc.definitions) {
    if (def.kind === Kind.ENUM_TYPE_DEFINITION) enums.add(def.name.value);
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION) kinds.set(def.name.value, "object");
    if (def.kind === Kind.INTERFACE_TYPE_DEFINITION) kinds.set(def.name.value, "interface");
    if (def.kind === Kind.UNION_TYPE_DEFINITION) kinds.set(def.name.value, "union");
    if (
      "directives" in def &&
      def.directives?.some((d) => d.name.value === "remote") &&
      "name" in def &&
      def.name
    ) {
      remote.add(def.name.value);
    }
  }
  // Extended types' keys (`extend type X @key(fields: "id")`): the owner's ID, stored here as a value.
  const extendedKeys = new Map<string, string>();
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION || directive(def, "extends") === undefined) continue;
    const key = stringArgument(directive(def, "key"), "fields");
    if (key !== undefined) extendedKeys.set(def.name.value, key.trim());
  }
  const dgraphTypeOf = new Map<string, string>();
  for (const def of doc.definitions) {
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.INTERFACE_TYPE_DEFINITION) {
      dgraphTypeOf.set(def.name.value, stringArgument(directive(def, "dgraph"), "type") ?? def.name.value);
    }
  }
  const kindOf = (typeName: string): FieldKind => {
    if (typeName === "ID") return "id";
    if (GEO.has(typeName)) return "geo";
    if (enums.has(typeName)) return "enum";
    const k = kinds.get(typeName);
    if (k !== undefined) return k;
    return SCALARS.has(typeName) ? "scalar" : "scalar";
  };
  const fieldModel = (owner: string, node: FieldDefinitionNode): FieldModel => {
    const typeName = namedType(node.type);
    const kind = kindOf(typeName);
    const custom = directive(node, "custom") !== undefined;
    const lambda = directive(node, "lambda") !== undefined;
    const pred = stringArgument(directive(node, "dgraph"), "pred");
    const prefix = dgraphTypeOf.get(owner) ?? owner;
    const storedId = kind === "id" && extendedKeys.get(owner) === node.name.value;
    let predicate =
      (kind === "id" && !storedId) || custom || lambda ? "" : (pred ?? `${prefix}.${node.name.value}`);
    const reverse = predicate.startsWith("~");
    let lang: string | undefined;
    const at = predicate.indexOf("@");
    if (at > 0) {
      lang = predicate.slice(at + 1);
      predicate = predicate.slice(0, at);
    }
    const id = directive(node, "id");
    return {
      name: node.name.value,
      typeName,
      kind,
      ...shape(node.type),
      typeText: typeText(node.type),
      predicate,
      reverse,
      lang,
      xid: id !== undefined || storedId,
      xidInterface: booleanArgument(id, "interface") === true,
      search:
        kind === "object" || kind === "interface" || kind === "union"
          ? []
          : searchArguments(node, kind, typeName),
      inverse: nameArgument(directive(node, "hasInverse"), "field"),
      custom,
      lambda,
      external: directive(node, "external") !== undefined,
      storedId,
      provided: false,
      declaredIn: owner,
      line: node.loc?.startToken.line ?? 0,
      column: node.loc?.startToken.column ?? 0,
      node,
    };
  };

  const ownFields = new Map<string, FieldModel[]>();
  for (const def of doc.definitions) {
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.INTERFACE_TYPE_DEFINITION) {
      ownFields.set(
        def.name.value,
        (def.fields ?? []).map((f) => fieldModel(def.name.value, f)),
      );
    }
  }

  const types = new Map<string, TypeModel>();
  const order: string[] = [];
  for (const def of doc.definitions) {
    if (
      def.kind !== Kind.OBJECT_TYPE_DEFINITION &&
      def.kind !== Kind.INTERFACE_TYPE_DEFINITION &&
      def.kind !== Kind.UNION_TYPE_DEFINITION
    ) {
      continue;
    }
    const name = def.name.value;
    if (name === "Query" || name === "Mutation" || name === "Subscription") continue;
    const line = def.loc?.startToken.line ?? 0;
    if (def.kind === Kind.UNION_TYPE_DEFINITION) {
      types.set(name, {
        name,
        kind: "union",
        dgraphType: name,
        interfaces: [],
        fields: [],
        members: (def.types ?? []).map((t) => t.name.value),
        remote: remote.has(name),
        extended: false,
        key: undefined,
        generate: generateFlags(undefined),
        secret: undefined,
        withSubscription: false,
        line,
      });
      order.push(name);
      continue;
    }
    const interfaces = (def.interfaces ?? []).map((i) => i.name.value);
    const fields: FieldModel[] = [];
    const seen = new Set<string>();
    for (const iface of interfaces) {
      for (const f of ownFields.get(iface) ?? []) {
        if (seen.has(f.name)) continue;
        seen.add(f.name);
        fields.push(f);
      }
    }
    for (const f of ownFields.get(name) ?? []) {
      if (seen.has(f.name)) continue;
      seen.add(f.name);
      fields.push(f);
    }
    const secretDirective = directive(def, "secret");
    const secretField = stringArgument(secretDirective, "field");
    const dgraphType = dgraphTypeOf.get(name) ?? name;
    types.set(name, {
      name,
      kind: def.kind === Kind.OBJECT_TYPE_DEFINITION ? "object" : "interface",
      dgraphType,
      interfaces,
      fields,
      members: [],
      remote: remote.has(name),
      extended: directive(def, "extends") !== undefined,
      key: stringArgument(directive(def, "key"), "fields"),
      generate: generateFlags(directive(def, "generate")),
      secret:
        secretField === undefined
          ? undefined
          : {
              field: secretField,
              predicate: stringArgument(secretDirective, "pred") ?? `${dgraphType}.${secretField}`,
            },
      withSubscription: directive(def, "withSubscription") !== undefined,
      line,
    });
    order.push(name);
  }
  linkInverses(types);
  markProvided(types);
  return { types, enums, order };
}

/** `@hasInverse` is declared on one side only: give the other side its inverse too. */
function linkInverses(types: Map<string, TypeModel>): void {
  for (const type of types.values()) {
    for (const field of type.fields) {
      if (field.inverse === undefined) continue;
      const target = types.get(field.typeName);
      const other = target?.fields.find((f) => f.name === field.inverse);
      if (other !== undefined && other.inverse === undefined) other.inverse = field.name;
    }
  }
}

/** The type's `ID` field, if it has one. */
export function idField(type: TypeModel): FieldModel | undefined {
  return type.fields.find((f) => f.kind === "id" && !f.storedId);
}

/** Fields stored as predicates (not ID, not custom/lambda, not reverse). */
export function storedFields(type: TypeModel): FieldModel[] {
  return type.fields.filter((f) => f.predicate !== "" && !f.reverse);
}

/** `@provides(fields: "a b")` on a field of type T: T's external fields a and b are stored here too. */
function markProvided(types: Map<string, TypeModel>): void {
  for (const type of types.values()) {
    for (const field of type.fields) {
      const provides = stringArgument(directive(field.node, "provides"), "fields");
      if (provides === undefined) continue;
      const target = types.get(field.typeName);
      for (const name of provides.split(/[\s,]+/).filter(Boolean)) {
        const provided = target?.fields.find((f) => f.name === name);
        if (provided?.external) provided.provided = true;
      }
    }
  }
}
