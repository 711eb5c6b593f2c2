import { isTimestampRecord } from "../wit/well-known-types.ts";
import type { AppWorld, WitEnum, WitFunction, WitRecord, WitType } from "../wit/wit-types.ts";
import {
  enumCaseToGraphQL,
  fieldNameFor,
  isHiddenFunction,
  kebabToCamel,
  kebabToPascal,
  type RootTypeName,
  rootTypeFor,
} from "./naming-conventions.ts";

/**
 * Turns an app's WIT world into a GraphQL schema (SDL text) plus the bindings the resolvers need.
 *
 * Mapping (decided for Trellis, close to Modus): bool → Boolean; s8/s16/s32/u8/u16 → Int; u32 → UInt;
 * s64 → Int64; u64 → UInt64; f32/f64 → Float; char/string → String; list<T> → [T!]!; option<T> → nullable;
 * records → `type X` + `input XInput` (a record without fields → `scalar X`); enums → enum with
 * UPPER_SNAKE_CASE values; tuples → `<Parts>Tuple` objects with fields item1..N (+ `…TupleInput`); a
 * function's `result<T, E>` → T and no result / `result<_, E>` → `Void`; the record `timestamp` (seconds,
 * nanoseconds) → `Timestamp`, an RFC 3339 string (well-known-types.ts). A `result` anywhere else is
 * refused. Every root field is nullable: any call can fail (error, trap, timeout) and must yield
 * `data.<field>: null` without nulling its siblings.
 */

export const SDL_HEADER = "# Trellis GraphQL Schema (auto-generated)";

export interface ArgBinding {
  /** GraphQL argument name (camelCase of the WIT parameter). */
  name: string;
  witName: string;
  type: WitType;
  graphqlType: string;
}

export interface FieldBinding {
  rootType: RootTypeName;
  /** GraphQL field name, e.g. `person` for WIT `get-person`. */
  fieldName: string;
  /** WIT export name the resolver invokes, e.g. `get-person`. */
  witName: string;
  args: ArgBinding[];
  /** The value the function yields once a top-level `result` is unwrapped; undefined means no value. */
  returns: WitType | undefined;
  graphqlType: string;
  /** Selection set for the return type (`{ id name }`), "" for leaf types; used by the explorer. */
  selection: string;
  description?: string;
}

export interface AppSchema {
  sdl: string;
  fields: FieldBinding[];
  /** GraphQL enum name → its values, for the explorer's inputs. */
  enums: Record<string, string[]>;
}

export class SchemaBuildError extends Error {
  override name = "SchemaBuildError";
}

type Mode = "output" | "input";

/**
 * Builds the SDL and field bindings for every visible exported function of `world`, or with `only` for
 * those of these GraphQL field names (an endpoint that serves some functions): the SDL then holds only the
 * types they use.
 */
export function buildAppSchema(world: AppWorld, only?: readonly string[]): AppSchema {
  return new SchemaWriter(world, only === undefined ? undefined : new Set(only)).build();
}

class SchemaWriter {
  /** GraphQL type name → its SDL block; `owner` detects two WIT shapes claiming one name. */
  private readonly namedTypes = new Map<string, { owner: string; sdl: string }>();
  private readonly scalars = new Set<string>();
  private readonly enums: Record<string, string[]> = {};

  constructor(
    private readonly world: AppWorld,
    private readonly only?: ReadonlySet<string>,
  ) {}

  build(): AppSchema {
    const only = this.only;
    const fields = this.world.functions
      .filter((f) => !isHiddenFunction(f.name))
      .filter((f) => only === undefined || only.has(fieldNameFor(kebabToCamel(f.name))))
      .map((f) => this.bind(f));
    fields.sort((a, b) => compareNames(a.fieldName, b.fieldName));
    const seen = new Map<string, string>();
    for (const f of fields) {
      const key = `${f.rootType}.${f.fieldName}`;
      const other = seen.get(key);
      if (other) {
        throw new SchemaBuildError(
          `functions "${other}" and "${f.witName}" both map to GraphQL field ${key}; rename one of them`,
        );
      }
      seen.set(key, f.witName);
    }

    const queries = fields.filter((f) => f.rootType === "Query");
    const mutations = fields.filter((f) => f.rootType === "Mutation");
    const blocks: string[] = [];
    if (queries.length > 0) {
      blocks.push(rootBlock("Query", queries));
    } else {
      // GraphQL requires a Query type; an app with only mutations gets a placeholder.
      this.scalars.add("Void");
      blocks.push('type Query {\n  """This app exports no query functions."""\n  _empty: Void\n}');
    }
    if (mutations.length > 0) blocks.push(rootBlock("Mutation", mutations));
    const names = [...this.namedTypes.keys()].sort(compareNames);
    for (const name of names) blocks.push(this.namedTypes.get(name)!.sdl);
    for (const scalar of [...this.scalars].sort(compareNames)) blocks.push(`scalar ${scalar}`);
    return { sdl: `${SDL_HEADER}\n\n${blocks.join("\n\n")}\n`, fields, enums: this.enums };
  }

  private bind(fn: WitFunction): FieldBinding {
    const camel = kebabToCamel(fn.name);
    const rootType = rootTypeFor(camel);
    const where = `function "${fn.name}"`;
    const args = fn.params.map((p) => {
      rejectResult(p.type, `${where}, parameter "${p.name}"`);
      return {
        name: kebabToCamel(p.name),
        witName: p.name,
        type: p.type,
        graphqlType: this.typeRef(p.type, "input"),
      };
    });
    const returns = fn.result?.kind === "result" ? fn.result.ok : fn.result;
    if (returns) rejectResult(returns, `${where}, result`);
    let graphqlType: string;
    if (returns) {
      graphqlType = nullable(this.typeRef(returns, "output"));
    } else {
      this.scalars.add("Void");
      graphqlType = "Void";
    }
    return {
      rootType,
      fieldName: fieldNameFor(camel),
      witName: fn.name,
      args,
      returns,
      graphqlType,
      selection: returns ? this.selection(returns) : "",
      ...(fn.docs ? { description: fn.docs } : {}),
    };
  }

  /** The GraphQL type reference for `t` (with `!` unless nullable), registering the named types used. */
  private typeRef(t: WitType, mode: Mode): string {
    switch (t.kind) {
      case "prim": {
        const name = scalarFor(t.name);
        if (!BUILT_IN_SCALARS.has(name)) this.scalars.add(name);
        return `${name}!`;
      }
      case "option":
        return nullable(this.typeRef(t.of, mode));
      case "list":
        return `[${this.typeRef(t.of, mode)}]!`;
      case "tuple":
        return `${this.tupleType(t.of, mode)}!`;
      case "ref":
        return `${this.refType(t.name, mode)}!`;
      case "result":
        throw new SchemaBuildError("a result type is only supported as a function's return type");
    }
  }

  private refType(witName: string, mode: Mode): string {
    const def = this.world.types.get(witName);
    if (!def) throw new SchemaBuildError(`type "${witName}" is used but not defined in the world`);
    if (isTimestampRecord(def)) {
      this.scalars.add("Timestamp");
      return "Timestamp";
    }
    return def.kind === "enum" ? this.enumType(def) : this.recordType(def, mode);
  }

  private enumType(def: WitEnum): string {
    const name = kebabToPascal(def.name);
    const values = def.cases.map(enumCaseToGraphQL);
    const body = values.map((v) => `  ${v}`).join("\n");
    this.register(name, `enum:${def.name}`, `${describe(def.docs, "")}enum ${name} {\n${body}\n}`);
    this.enums[name] = values;
    return name;
  }

  private recordType(def: WitRecord, mode: Mode): string {
    const base = kebabToPascal(def.name);
    if (def.fields.length === 0) {
      // GraphQL object types need fields; Modus maps field-less types to custom scalars.
      this.register(base, `record:${def.name}`, `${describe(def.docs, "")}scalar ${base}`);
      return base;
    }
    const name = mode === "input" ? `${base}Input` : base;
    const owner = `record:${def.name}:${mode}`;
    if (this.namedTypes.get(name)?.owner === owner) return name;
    this.register(name, owner, ""); // placeholder first, so the name is claimed before fields recurse
    const lines = def.fields.map((f) => {
      rejectResult(f.type, `record "${def.name}", field "${f.name}"`);
      return `${describe(f.docs, "  ")}  ${kebabToCamel(f.name)}: ${this.typeRef(f.type, mode)}`;
    });
    const keyword = mode === "input" ? "input" : "type";
    this.namedTypes.set(name, {
      owner,
      sdl: `${describe(def.docs, "")}${keyword} ${name} {\n${lines.join("\n")}\n}`,
    });
    return name;
  }

  private tupleType(parts: WitType[], mode: Mode): string {
    if (parts.length === 0) throw new SchemaBuildError("an empty tuple has no GraphQL representation");
    const base = `${parts.map((p) => this.fragment(p)).join("")}Tuple`;
    const name = mode === "input" ? `${base}Input` : base;
    const lines = parts.map((p, i) => `  item${i + 1}: ${this.typeRef(p, mode)}`);
    const keyword = mode === "input" ? "input" : "type";
    this.register(name, `tuple:${mode}:${lines.join(",")}`, `${keyword} ${name} {\n${lines.join("\n")}\n}`);
    return name;
  }

  /** A name fragment for composite type names: `String`, `PersonList`, `NullableInt`. */
  private fragment(t: WitType): string {
    switch (t.kind) {
      case "prim":
        return scalarFor(t.name);
      case "option":
        return `Nullable${this.fragment(t.of)}`;
      case "list":
        return `${this.fragment(t.of)}List`;
      case "tuple":
        return `${t.of.map((p) => this.fragment(p)).join("")}Tuple`;
      case "ref":
        return isTimestampRecord(this.world.types.get(t.name)) ? "Timestamp" : kebabToPascal(t.name);
      case "result":
        throw new SchemaBuildError("a result type is only supported as a function's return type");
    }
  }

  private register(name: string, owner: string, sdl: string): void {
    const existing = this.namedTypes.get(name);
    if (existing && existing.owner !== owner) {
      throw new SchemaBuildError(`two different types map to the GraphQL name "${name}"; rename one of them`);
    }
    if (!existing || sdl !== "") this.namedTypes.set(name, { owner, sdl: sdl || existing?.sdl || "" });
  }

  private selection(t: WitType): string {
    switch (t.kind) {
      case "prim":
      case "result":
        return "";
      case "option":
      case "list":
        return this.selection(t.of);
      case "tuple":
        return `{ ${t.of.map((p, i) => `item${i + 1}${spaced(this.selection(p))}`).join(" ")} }`;
      case "ref": {
        const def = this.world.types.get(t.name);
        if (!def || def.kind === "enum" || def.fields.length === 0 || isTimestampRecord(def)) return "";
        return `{ ${def.fields.map((f) => `${kebabToCamel(f.name)}${spaced(this.selection(f.type))}`).join(" ")} }`;
      }
    }
  }
}

const BUILT_IN_SCALARS = new Set(["Int", "Float", "String", "Boolean"]);

/** The GraphQL scalar for a WIT primitive. */
export function scalarFor(prim: string): string {
  switch (prim) {
    case "bool":
      return "Boolean";
    case "s8":
    case "s16":
    case "s32":
    case "u8":
    case "u16":
      return "Int";
    case "u32":
      return "UInt";
    case "s64":
      return "Int64";
    case "u64":
      return "UInt64";
    case "f32":
    case "f64":
      return "Float";
    default:
      return "String";
  }
}

function rejectResult(t: WitType, where: string): void {
  const bad = (x: WitType): boolean =>
    x.kind === "result" ||
    ((x.kind === "option" || x.kind === "list") && bad(x.of)) ||
    (x.kind === "tuple" && x.of.some(bad));
  if (bad(t)) {
    throw new SchemaBuildError(`${where}: a result type is only supported as a function's return type`);
  }
}

function rootBlock(name: RootTypeName, fields: FieldBinding[]): string {
  const lines = fields.map((f) => {
    const args = f.args.length > 0 ? `(${f.args.map((a) => `${a.name}: ${a.graphqlType}`).join(", ")})` : "";
    return `${describe(f.description, "  ")}  ${f.fieldName}${args}: ${f.graphqlType}`;
  });
  return `type ${name} {\n${lines.join("\n")}\n}`;
}

/** A block-string description (`"""…"""`) for doc comments, or "" when there are none. */
function describe(docs: string | undefined, indent: string): string {
  const text = docs?.trim();
  if (!text) return "";
  const escaped = text.replaceAll('"""', '\\"""');
  if (!escaped.includes("\n")) return `${indent}"""${escaped}"""\n`;
  const body = escaped
    .split("\n")
    .map((l) => (l.trim() === "" ? "" : `${indent}${l.trimEnd()}`))
    .join("\n");
  return `${indent}"""\n${body}\n${indent}"""\n`;
}

function nullable(typeRef: string): string {
  return typeRef.endsWith("!") ? typeRef.slice(0, -1) : typeRef;
}

function spaced(selection: string): string {
  return selection === "" ? "" : ` ${selection}`;
}

/** Case-insensitive order, ties broken by code point so the order is total. */
function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
