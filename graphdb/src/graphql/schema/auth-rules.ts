/**
 * The `@auth(password:, query:, add:, update:, delete:)` rules of the input's types and interfaces, checked
 * and compiled when the schema is built (reference §1.3). A rule node is exactly one of `and` / `or` (at
 * least two rules), `not` or `rule`; a `rule` starting with `{` is an RBAC rule `{ $CLAIM: { eq|in|regexp:
 * value } }`, any other is a graph-traversal rule — one GraphQL query `query<Type>` over the generated API,
 * valid against it, whose variables are JWT claims. Errors are Dgraph's texts. A type's rules are AND-ed
 * with those of the interfaces it implements.
 */
import {
  type ConstDirectiveNode,
  type ConstValueNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import type { SchemaProblem } from "./schema-error.ts";

export type AuthRule =
  | { readonly kind: "and" | "or"; readonly rules: readonly AuthRule[] }
  | { readonly kind: "not"; readonly rule: AuthRule }
  | {
      readonly kind: "rbac";
      /** The claim's name, without `$`. */
      readonly variable: string;
      readonly operator: "eq" | "in" | "regexp";
      readonly operand: unknown;
      readonly regex?: RegExp;
    }
  | {
      readonly kind: "query";
      /** The type the rule was written on (its `query<Type>` field). */
      readonly typeName: string;
      readonly document: DocumentNode;
      readonly operation: OperationDefinitionNode;
      readonly field: FieldNode;
      /** The rule's variables (claim names), without `$`. */
      readonly variables: readonly string[];
    };

export interface TypeAuthRules {
  readonly password?: AuthRule;
  readonly query?: AuthRule;
  readonly add?: AuthRule;
  readonly update?: AuthRule;
  readonly delete?: AuthRule;
}

export type AuthOperation = keyof TypeAuthRules;
const OPERATIONS: readonly AuthOperation[] = ["password", "query", "add", "update", "delete"];

class RuleErrors {
  readonly problems: SchemaProblem[] = [];
  add(message: string): void {
    this.problems.push({ message });
  }
}

/**
 * Every type's rules (interfaces' rules merged into their implementing types); problems are collected in
 * `problems`. Types without rules have no entry.
 */
export function compileAuthRules(
  doc: DocumentNode,
  schema: GraphQLSchema,
): { rules: Map<string, TypeAuthRules>; problems: SchemaProblem[] } {
  const errors = new RuleErrors();
  const own = new Map<string, TypeAuthRules>();
  const implementing = new Map<string, string[]>();
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
    const name = def.name.value;
    implementing.set(
      name,
      (def.interfaces ?? []).map((i) => i.name.value),
    );
    const dir = def.directives?.find((d) => d.name.value === "auth");
    if (dir === undefined) continue;
    const compiled = compileDirective(schema, name, dir, errors);
    if (compiled !== undefined) own.set(name, compiled);
  }
  const rules = new Map<string, TypeAuthRules>();
  for (const [name, interfaces] of implementing) {
    let merged = own.get(name);
    for (const iface of interfaces) {
      const other = own.get(iface);
      if (other !== undefined) merged = merged === undefined ? { ...other } : mergeAnd(merged, other);
    }
    if (merged !== undefined) rules.set(name, merged);
  }
  return { rules, problems: errors.problems };
}

function mergeAnd(a: TypeAuthRules, b: TypeAuthRules): TypeAuthRules {
  const out: Record<string, AuthRule> = {};
  for (const op of OPERATIONS) {
    const x = a[op];
    const y = b[op];
    const r = x === undefined ? y : y === undefined ? x : ({ kind: "and", rules: [x, y] } as AuthRule);
    if (r !== undefined) out[op] = r;
  }
  return out;
}

function compileDirective(
  schema: GraphQLSchema,
  typeName: string,
  dir: ConstDirectiveNode,
  errors: RuleErrors,
): TypeAuthRules | undefined {
  if (!dir.arguments?.length) return undefined;
  const out: Record<string, AuthRule> = {};
  for (const op of OPERATIONS) {
    const arg = dir.arguments.find((a) => a.name.value === op);
    if (arg === undefined || arg.value.kind === Kind.NULL) continue;
    const rule = compileNode(schema, typeName, arg.value, errors);
    if (rule !== undefined) out[op] = rule;
  }
  return out;
}

function compileNode(
  schema: GraphQLSchema,
  typeName: string,
  value: ConstValueNode,
  errors: RuleErrors,
): AuthRule | undefined {
  const fields = value.kind === Kind.OBJECT ? value.fields : [];
  if (fields.length === 0) {
    errors.add(
      `Type ${typeName}: @auth: no arguments - there should be only one of "and", "or", "not" and "rule"`,
    );
    return undefined;
  }
  const found: AuthRule[] = [];
  let children = 0;
  for (const f of fields) {
    const name = f.name.value;
    if (name === "and" || name === "or") {
      const items = f.value.kind === Kind.LIST ? f.value.values : [f.value];
      if (items.length === 0 || f.value.kind === Kind.NULL) continue;
      children++;
      const rules = items
        .map((v) => compileNode(schema, typeName, v, errors))
        .filter((r): r is AuthRule => r !== undefined);
      if (items.length < 2) {
        errors.add(`Type ${typeName}: @auth: '${name.toUpperCase()}' should contain at least two rules`);
      }
      found.push({ kind: name, rules });
    } else if (name === "not") {
      if (f.value.kind === Kind.NULL) continue;
      children++;
      const rule = compileNode(schema, typeName, f.value, errors);
      if (rule !== undefined) found.push({ kind: "not", rule });
    } else if (name === "rule") {
      children++;
      const text = f.value.kind === Kind.STRING ? f.value.value : "";
      const rule = text.startsWith("{")
        ? rbacRule(typeName, text, errors)
        : queryRule(schema, typeName, text, errors);
      if (rule !== undefined) found.push(rule);
    }
  }
  if (children !== 1 || fields.length > 1) {
    errors.add(`Type ${typeName}: @auth: there should be only one of "and", "or", "not" and "rule"`);
    return undefined;
  }
  return found.length === 1 ? found[0] : undefined;
}

function rbacRule(typeName: string, rule: string, errors: RuleErrors): AuthRule | undefined {
  const m = /^\{\s?(.*?)\s?:\s?\{\s?(\w*)\s?:\s?(.*)\s?\}\s?\}$/s.exec(rule);
  if (m === null) {
    errors.add(`Type ${typeName}: @auth: \`${rule}\` is not a valid rule.`);
    return undefined;
  }
  const [, variable, operator, operandText] = m;
  let operand: unknown;
  try {
    operand = JSON.parse(operandText);
  } catch {
    errors.add(`Type ${typeName}: @auth: \`${variable}\` is not a valid GraphQL variable.`);
    return undefined;
  }
  if (operand === null) {
    errors.add(
      `Type ${typeName}: @auth: \`${variable}\` is not a valid GraphQL variable. object or nil values aren't supported`,
    );
    return undefined;
  }
  if (!variable.startsWith("$")) {
    errors.add(`Type ${typeName}: @auth: \`${variable}\` is not a valid GraphQL variable.`);
    return undefined;
  }
  if (operator !== "eq" && operator !== "in" && operator !== "regexp") {
    errors.add(`Type ${typeName}: @auth: \`${operator}\` operator is not supported in this rule.`);
    return undefined;
  }
  if (
    (operator === "regexp" && typeof operand !== "string") ||
    (operator === "in" && !Array.isArray(operand))
  ) {
    errors.add(`Type ${typeName}: @auth: \`${operator}\` operator has invalid value in this rule.`);
    return undefined;
  }
  let regex: RegExp | undefined;
  if (operator === "regexp") {
    try {
      regex = new RegExp(operand as string);
    } catch (e) {
      errors.add(`Type ${typeName}: @auth: ${(e as Error).message}`);
      return undefined;
    }
  }
  return { kind: "rbac", variable: variable.slice(1), operator, operand, regex };
}

function queryRule(
  schema: GraphQLSchema,
  typeName: string,
  rule: string,
  errors: RuleErrors,
): AuthRule | undefined {
  let document: DocumentNode;
  try {
    document = parse(rule);
  } catch (e) {
    errors.add(`Type ${typeName}: @auth: failed to parse GraphQL rule [reason : ${(e as Error).message}]`);
    return undefined;
  }
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1) {
    errors.add(
      `Type ${typeName}: @auth: a rule should be exactly one query, found ${operations.length} GraphQL operations`,
    );
    return undefined;
  }
  const operation = operations[0];
  if (operation.operation !== "query") {
    errors.add(
      `Type ${typeName}: @auth: a rule should be exactly one query, found an ${operation.name?.value ?? ""}`,
    );
    return undefined;
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) {
    for (const e of invalid) {
      errors.add(`Type ${typeName}: @auth: failed to validate GraphQL rule [reason : ${e.message}]`);
    }
    return undefined;
  }
  if (operation.selectionSet.selections.length !== 1) {
    errors.add(
      `Type ${typeName}: @auth: a rule should be exactly one query, found ${operation.selectionSet.selections.length} queries`,
    );
    return undefined;
  }
  const field = operation.selectionSet.selections[0];
  if (field.kind !== Kind.FIELD) {
    errors.add(`Type ${typeName}: @auth: error couldn't generate query from rule`);
    return undefined;
  }
  if (field.name.value !== `query${typeName}`) {
    errors.add(`Type ${typeName}: @auth: expected only query${typeName} rules,but found ${field.name.value}`);
    return undefined;
  }
  return {
    kind: "query",
    typeName,
    document,
    operation,
    field,
    variables: (operation.variableDefinitions ?? []).map((v) => v.variable.name.value),
  };
}
