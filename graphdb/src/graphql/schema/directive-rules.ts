/**
 * Dgraph's checks on where `@auth`, `@lambdaOnMutate` and `@remoteResponse` are used and on their
 * arguments (graphql/schema/rules.go: `hasAuthDirective`, `lambdaOnMutateValidation`,
 * `remoteResponseValidation`), with its texts, at the directive's line. They read the input document
 * only, so they run before GraphQL's own checks (which would otherwise answer an `@auth` on a field with
 * its location error instead of Dgraph's text).
 */
import {
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  Kind,
  print,
} from "graphql";
import type { SchemaProblem } from "./schema-error.ts";
import { directive } from "./type-model.ts";

export interface DirectiveRuleOptions {
  /**
   * Whether a lambda server is configured (Dgraph's `--graphql lambda-url`): `@lambdaOnMutate` needs one.
   * Undefined when unknown (a stored schema being loaded): not checked.
   */
  lambdaConfigured?: boolean;
}

type TypeDefinition = Extract<DefinitionNode, { fields?: readonly FieldDefinitionNode[] }> & {
  readonly directives?: readonly ConstDirectiveNode[];
};

const at = (node: { loc?: { startToken: { line: number; column: number } } }, message: string) => ({
  message,
  line: node.loc?.startToken.line,
  column: node.loc?.startToken.column,
});

/** Every problem of the three directives in the input document. */
export function directiveProblems(doc: DocumentNode, options: DirectiveRuleOptions = {}): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
    problems.push(...lambdaOnMutateProblems(def, options));
    for (const field of def.fields ?? []) problems.push(...fieldProblems(def, field));
  }
  return problems;
}

/** `@auth` is a type's directive; `@remoteResponse(name:)` names a key of a `@remote` type's answer. */
function fieldProblems(type: TypeDefinition, field: FieldDefinitionNode): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const name = `Type ${type.name.value}; Field ${field.name.value}`;
  if (directive(field, "auth") !== undefined) {
    out.push(at(field, `${name}: @auth directive is not allowed on fields`));
  }
  const remoteResponse = directive(field, "remoteResponse");
  if (remoteResponse !== undefined) {
    const where = `Type ${type.name.value}: Field ${field.name.value}`;
    const arg = remoteResponse.arguments?.find((a) => a.name.value === "name")?.value;
    if (directive(type, "remote") === undefined) {
      out.push(
        at(
          remoteResponse,
          `${where}: @remoteResponse directive can only be defined on fields of @remote type.`,
        ),
      );
    } else if (
      arg === undefined ||
      arg.kind === Kind.NULL ||
      (arg.kind === Kind.STRING && arg.value === "")
    ) {
      out.push(
        at(remoteResponse, `${where}: Argument name inside @remoteResponse directive must be defined.`),
      );
    }
  }
  return out;
}

/** `@lambdaOnMutate(add:, update:, delete:)`: a lambda server, a stored type, Boolean arguments. */
function lambdaOnMutateProblems(type: TypeDefinition, options: DirectiveRuleOptions): SchemaProblem[] {
  const d = directive(type, "lambdaOnMutate");
  if (d === undefined) return [];
  const out: SchemaProblem[] = [];
  const name = type.name.value;
  if (options.lambdaConfigured === false) {
    out.push(
      at(
        d,
        `Type ${name}: has the @lambdaOnMutate directive, but the \`--graphql lambda-url\` flag wasn't specified during alpha startup.`,
      ),
    );
  }
  if (directive(type, "remote") !== undefined) {
    out.push(at(d, `Type ${name}; @lambdaOnMutate directive not allowed along with @remote directive.`));
  }
  for (const arg of d.arguments ?? []) {
    if (arg.value.kind === Kind.BOOLEAN) continue;
    out.push(
      at(
        arg,
        `Type ${name}; ${arg.name.value} argument in @lambdaOnMutate directive can only be true/false, found: \`${print(arg.value)}\`.`,
      ),
    );
  }
  return out;
}

/** The operations whose commits a type's `@lambdaOnMutate` reports (only arguments given as `true`). */
export function lambdaOnMutateOperations(
  type: { readonly directives?: readonly ConstDirectiveNode[] } | null | undefined,
): ReadonlySet<"add" | "update" | "delete"> {
  const ops = new Set<"add" | "update" | "delete">();
  const d = type === null || type === undefined ? undefined : directive(type, "lambdaOnMutate");
  for (const arg of d?.arguments ?? []) {
    const op = arg.name.value;
    if (
      (op === "add" || op === "update" || op === "delete") &&
      arg.value.kind === Kind.BOOLEAN &&
      arg.value.value
    )
      ops.add(op);
  }
  return ops;
}
