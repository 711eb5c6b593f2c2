/**
 * Dgraph's own checks on an input schema, beyond GraphQL's (reference §1, §4.2), with its message texts.
 * Each rule reports problems at the definition they concern.
 */
import { type ConstDirectiveNode, type DocumentNode, Kind } from "graphql";
import { INJECTED_NAMES } from "./dgraph-extras.ts";
import type { SchemaProblem } from "./schema-error.ts";
import { SEARCH_ARGUMENTS } from "./search-indexes.ts";
import {
  directive,
  type FieldModel,
  type SchemaModel,
  stringArgument,
  type TypeModel,
} from "./type-model.ts";

const GENERATED_SUFFIXES = ["Ref", "Patch", "Filter", "Order", "Orderable", "HasFilter", "AggregateResult"];

/** Checks on the input document before the model is built. */
export function documentProblems(doc: DocumentNode): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const names = new Set<string>();
  for (const def of doc.definitions) if ("name" in def && def.name) names.add(def.name.value);
  for (const def of doc.definitions) {
    const line = def.loc?.startToken.line;
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.INTERFACE_TYPE_DEFINITION) {
      problems.push(...keyDirectiveProblems(def.name.value, def.directives ?? [], line));
    }
    if (def.kind === Kind.SCALAR_TYPE_DEFINITION) {
      problems.push({
        message:
          "You can't add scalar definitions. Only type, interface, union, input and enums are allowed in initial schema.",
        line,
      });
      continue;
    }
    if (!("name" in def) || def.name === undefined) continue;
    const name = def.name.value;
    if (
      INJECTED_NAMES.has(name) ||
      name === "uid" ||
      name === "Subscription" ||
      name.toLowerCase() === "as"
    ) {
      problems.push({
        message: `${name} is a reserved word, so you can't declare a type with this name. Pick a different name for the type.`,
        line,
      });
      continue;
    }
    for (const suffix of GENERATED_SUFFIXES) {
      const base = name.endsWith(suffix) ? name.slice(0, -suffix.length) : "";
      if (base !== "" && names.has(base) && def.kind !== Kind.INPUT_OBJECT_TYPE_DEFINITION) {
        problems.push({
          message: `${name} is a reserved word, so you can't declare a type with this name. Pick a different name for the type.`,
          line,
        });
      }
    }
    if ((name === "Query" || name === "Mutation") && def.kind === Kind.OBJECT_TYPE_DEFINITION) {
      for (const f of def.fields ?? []) {
        if (directive(f, "custom") === undefined && directive(f, "lambda") === undefined) {
          problems.push({
            message: `${name}.${f.name.value} must have @custom directive or @lambda directive.`,
            line: f.loc?.startToken.line,
          });
        }
      }
    }
  }
  return problems;
}

/** Checks on the model: identifiers, `@id`, `@search`, `@hasInverse`, field names, federation keys. */
export function modelProblems(model: SchemaModel): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const name of model.order) {
    const type = model.types.get(name) as TypeModel;
    if (type.remote && type.key !== undefined) {
      problems.push({
        message: `Type ${name}; @remote directive cannot be defined with @key directive`,
        line: type.line,
      });
    }
    if (type.remote && type.extended) {
      problems.push({
        message: `Type ${name}; @remote directive cannot be defined with @extends directive`,
        line: type.line,
      });
    }
    if (type.kind === "union" || type.remote) continue;
    const own = type.fields.filter((f) => f.declaredIn === type.name);
    const ids = type.fields.filter((f) => f.kind === "id");
    if (ids.length > 1) {
      const list = ids.map((f) => f.name).join(" and ");
      problems.push({
        message: `Fields ${list} are listed as IDs for type ${name}, but a type can have only one ID field. Pick a single field as the ID for type ${name}.`,
        line: type.line,
      });
    }
    const meaningful = type.fields.some((f) => !(f.kind === "id" && f.nonNull) && !f.custom && !f.lambda);
    if (!meaningful && type.kind === "object") {
      problems.push({
        message: `Type ${name}; is invalid, a type must have atleast one field that is not of ID! type and doesn't have @custom/@lambda directive.`,
        line: type.line,
      });
    }
    for (const f of own) problems.push(...fieldProblems(model, type, f));
    problems.push(...keyProblems(type));
    problems.push(...federationProblems(model, type));
  }
  return problems;
}

function fieldProblems(model: SchemaModel, type: TypeModel, f: FieldModel): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const at = (message: string) =>
    out.push({ message: `Type ${type.name}; Field ${f.name}: ${message}`, line: f.line });
  const lower = f.name.toLowerCase();
  if (
    f.name === "uid" ||
    lower === "as" ||
    ["String", "Int", "Float", "Boolean", "ID", "Int64", "DateTime"].includes(f.name)
  ) {
    at(`${f.name} is a reserved keyword and you cannot declare a field with this name.`);
  }
  if (f.name.endsWith("Aggregate")) {
    at(`Aggregate is a reserved keyword and you cannot declare a field with this name.`);
  }
  if (f.xid && !f.storedId) {
    if (!["String", "Int", "Int64"].includes(f.typeName) || f.list) {
      out.push({
        message: `Type ${type.name}; Field ${f.name}: with @id directive must be of type String, Int or Int64, not ${f.typeText}`,
        line: f.line,
      });
    }
  }
  if (directive(f.node, "search") !== undefined) {
    const applies = f.kind === "enum" ? "enum" : f.typeName;
    for (const arg of f.search) {
      const known = SEARCH_ARGUMENTS.get(arg);
      if (known === undefined) {
        at(
          `the argument to @search ${arg} isn't valid.Fields of type ${f.typeName} ${searchableBy(applies)}.`,
        );
      } else if (!known.types.includes(applies)) {
        at(
          `has the @search directive but the argument ${arg} doesn't apply to field type ${f.typeName}. Search by ${arg} applies to fields of type ${known.types.filter((t) => t !== "enum").join(", ")}. Fields of type ${f.typeName} ${searchableBy(applies)}.`,
        );
      }
    }
    const has = (a: string) => f.search.includes(a);
    if (has("hash") && has("exact"))
      at("the arguments 'hash' and 'exact' can't be used together as arguments to @search.");
    if (has("trigram") && has("regexp"))
      at("the arguments 'trigram' and 'regexp' can't be used together as arguments to @search.");
    if (applies !== "String" && applies !== "enum" && f.search.length > 1) {
      at(
        `has the @search directive but fields of type ${f.typeName} can only have one argument for @search.`,
      );
    }
  }
  const inverse = stringArgument(directive(f.node, "hasInverse"), "field");
  if (inverse !== undefined) {
    const target = model.types.get(f.typeName);
    const other = target?.fields.find((g) => g.name === inverse);
    if (target === undefined || (f.kind !== "object" && f.kind !== "interface")) {
      at(
        "Field does not return a type with fields. @hasInverse applies only to fields of types defined in the schema.",
      );
    } else if (other === undefined) {
      at(`inverse field ${inverse} doesn't exist for type ${f.typeName}.`);
    } else if (other.typeName !== type.name && !type.interfaces.includes(other.typeName)) {
      at(
        `@hasInverse is required to link the fields of same type, but the field ${inverse} is of the type ${other.typeName} instead of ${type.name}. To link these make sure the fields are of the same type.`,
      );
    }
  }
  return out;
}

function searchableBy(type: string): string {
  const args = [...SEARCH_ARGUMENTS].filter(([, a]) => a.types.includes(type)).map(([n]) => n);
  return args.length === 0
    ? "can't have the @search directive"
    : `are searchable by just @search${args.length > 1 ? ` or @search(by: [${args.join(", ")}])` : ""}`;
}

/** Federation (§4.2): one `@key`, naming one field that is `ID` or `@id`. */
function keyProblems(type: TypeModel): SchemaProblem[] {
  if (type.key === undefined) return [];
  const field = type.fields.find((f) => f.name === type.key);
  if (type.key.trim() === "")
    return [
      {
        message: `Type ${type.name}; Argument fields inside @key directive must be defined.`,
        line: type.line,
      },
    ];
  if (field === undefined) {
    return [
      {
        message: `Type ${type.name}; @key directive uses a field ${type.key} which is not defined inside the type.`,
        line: type.line,
      },
    ];
  }
  if (field.kind !== "id" && !field.xid) {
    return [
      {
        message: `Type ${type.name}: Field ${field.name}: used inside @key directive should be of type ID or have @id directive.`,
        line: type.line,
      },
    ];
  }
  return [];
}

/** `@key` used more than once, or without its `fields` (reference §4.2), before GraphQL's own checks. */
function keyDirectiveProblems(
  type: string,
  directives: readonly ConstDirectiveNode[],
  line: number | undefined,
): SchemaProblem[] {
  const keys = directives.filter((d) => d.name.value === "key");
  if (keys.length > 1)
    return [{ message: `Type ${type}; @key directive should not be defined more than once.`, line }];
  const fields = keys[0]?.arguments?.find((a) => a.name.value === "fields")?.value;
  if (
    keys.length === 1 &&
    (fields === undefined || (fields.kind === Kind.STRING && fields.value.trim() === ""))
  ) {
    return [{ message: `Type ${type}; Argument fields inside @key directive must be defined.`, line }];
  }
  return [];
}

const EXTENSION_ONLY = "i.e., the type must have `@extends` or use `extend` keyword.";

/** Federation's rules on `@extends`, `@external`, `@requires` and `@provides`, with Dgraph's texts (§4.2). */
function federationProblems(model: SchemaModel, type: TypeModel): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const at = (message: string, line = type.line) => out.push({ message, line });
  if (type.extended && type.key === undefined) {
    at(`Type ${type.name}; Type Extension cannot be defined without @key directive`);
  }
  for (const f of type.fields.filter((x) => x.declaredIn === type.name)) {
    if (f.external) {
      if (!type.extended) {
        at(
          `Type ${type.name}: Field ${f.name}: @external directive can only be defined on fields in type extensions. ${EXTENSION_ONLY}`,
          f.line,
        );
      } else if (f.custom || f.lambda) {
        at(
          `Type ${type.name}: Field ${f.name}: @external directive can not be defined on  fields with @custom or @lambda directive.`,
          f.line,
        );
      } else if (f.name !== type.key) {
        for (const name of ["hasInverse", "search", "dgraph", "id"]) {
          if (directive(f.node, name) !== undefined) {
            at(
              `Type ${type.name}: Field ${f.name}: @${name} directive can not be defined on @external fields that are not @key.`,
              f.line,
            );
          }
        }
      }
    }
    const requires = directive(f.node, "requires");
    if (requires !== undefined) {
      const fields = (stringArgument(requires, "fields") ?? "").split(/[\s,]+/).filter(Boolean);
      if (!type.extended) {
        at(
          `Type ${type.name}: Field ${f.name}: @requires directive can only be defined on fields in type extensions. ${EXTENSION_ONLY}`,
          f.line,
        );
      } else if (fields.length === 0) {
        at(`Type ${type.name}; Argument fields inside @requires directive must be defined.`, f.line);
      }
      for (const name of type.extended ? fields : []) {
        const required = type.fields.find((x) => x.name === name);
        if (required === undefined) {
          at(
            `Type ${type.name}; @requires directive uses a field ${name} which is not defined inside the type.`,
            f.line,
          );
        } else if (!required.external) {
          at(`Type ${type.name}; Field ${name} must be @external.`, f.line);
        }
      }
    }
    const provides = directive(f.node, "provides");
    if (provides !== undefined) {
      const target = model.types.get(f.typeName);
      if (target?.key === undefined) {
        at(`Type ${type.name}; Field ${f.name} does not return a type that has a @key.`, f.line);
        continue;
      }
      for (const name of (stringArgument(provides, "fields") ?? "").split(/[\s,]+/).filter(Boolean)) {
        if (!target.fields.some((x) => x.name === name)) {
          at(
            `Type ${type.name}; Field ${f.name}: @provides field ${name} doesn't exist for type ${target.name}.`,
            f.line,
          );
        }
      }
    }
  }
  return out;
}
