/**
 * `@auth` rules applied to the DQL of an operation (reference §1.3), given the request's verified claims.
 *
 * A rule evaluates to true (no restriction), false (nothing of the type is reachable: reads come back empty,
 * an add is refused), or a DQL filter expression. RBAC rules are decided by the claims alone (`eq` matches
 * the claim or any element of a list claim, `in` any of the listed values, `regexp` a string claim); a
 * graph-traversal rule whose variables are not all claims is false, else it becomes a var block — the
 * rule's `query<T>` rewritten with the claims as its variables under `@cascade` — and the filter
 * `uid(<var>)`. `and`/`or`/`not` compose, folding constants. An interface read allows each implementing
 * type's nodes by that type's rules, and a union edge each member type's nodes by that member's rules
 * (as Dgraph applies each member's query rule to the members a union field returns).
 */
import {
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  Kind,
} from "graphql";
import type { AuthOperation, AuthRule } from "../schema/auth-rules.ts";
import type { GraphQLSchemaBuild } from "../schema/build-graphql-schema.ts";
import type { TypeModel } from "../schema/type-model.ts";
import type { DqlTransaction } from "./dql-transaction.ts";
import type { Claims } from "./jwt-claims.ts";
import { edgeModifiers, type RewriteContext, selectionDql } from "./selection-rewriter.ts";

/** Dgraph's answer to an add whose new nodes do not satisfy the type's add rule. */
export class AuthorizationFailedError extends Error {
  constructor() {
    super("mutation failed because authorization failed");
  }
}

type Outcome = boolean | string;

/** The verified claims of one operation, and the schema's rules. */
export class AuthSession {
  constructor(
    readonly build: GraphQLSchemaBuild,
    readonly claims: Claims | undefined,
  ) {}

  /** Whether any type has rules (otherwise nothing needs rewriting). */
  get active(): boolean {
    return (this.build.authRules?.size ?? 0) > 0;
  }

  rewriter(): AuthRewriter {
    return new AuthRewriter(this);
  }
}

/** Builds the auth filters of one DQL query at a time, with the var blocks they need. */
export class AuthRewriter {
  private blocks: string[] = [];
  private readonly memo = new Map<string, Outcome>();
  private counter = 0;

  constructor(private readonly session: AuthSession) {}

  private get model() {
    return this.session.build.model;
  }

  /**
   * The filter that restricts `type` for `op` ("uid()" when nothing is allowed), or undefined when the
   * rules allow everything. Var blocks it needs are kept for `takeBlocks`.
   */
  filter(type: TypeModel, op: AuthOperation): string | undefined {
    const outcome = this.outcome(type, op);
    return outcome === true ? undefined : outcome === false ? "uid()" : outcome;
  }

  /** The rule outcome for `type` and `op`: true, false, or a filter expression. */
  outcome(type: TypeModel, op: AuthOperation): Outcome {
    if (!this.session.active) return true;
    const key = `${type.name}\u0000${op}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    let result: Outcome;
    if (type.kind === "interface" || type.kind === "union") {
      const parts = this.concreteTypes(type).map((t) => ({ t, o: this.ownOutcome(t, op) }));
      if (parts.every((p) => p.o === true)) result = true;
      else {
        const allowed = parts
          .filter((p) => p.o !== false)
          .map((p) =>
            p.o === true ? `type(${p.t.dgraphType})` : `(type(${p.t.dgraphType}) AND ${p.o as string})`,
          );
        result =
          allowed.length === 0 ? false : allowed.length === 1 ? allowed[0] : `(${allowed.join(" OR ")})`;
      }
    } else result = this.ownOutcome(type, op);
    this.memo.set(key, result);
    return result;
  }

  /** The object types a value of an interface (its implementers) or a union (its members) can be. */
  private concreteTypes(type: TypeModel): TypeModel[] {
    if (type.kind === "union") {
      return type.members
        .map((m) => this.model.types.get(m))
        .filter((t): t is TypeModel => t !== undefined && t.kind === "object");
    }
    return [...this.model.types.values()].filter(
      (t) => t.kind === "object" && t.interfaces.includes(type.name),
    );
  }

  /** The var blocks the filters since the last call need (each ends with a newline), forgotten after. */
  takeBlocks(): string {
    const text = this.blocks.map((b) => `  ${b}\n`).join("");
    this.blocks = [];
    this.memo.clear();
    return text;
  }

  private ownOutcome(type: TypeModel, op: AuthOperation): Outcome {
    const rule = this.session.build.authRules?.get(type.name)?.[op];
    return rule === undefined ? true : this.evaluate(rule);
  }

  private evaluate(rule: AuthRule): Outcome {
    const claims = this.session.claims ?? {};
    switch (rule.kind) {
      case "rbac":
        return rbacHolds(rule, claims);
      case "query":
        if (!rule.variables.every((v) => v in claims)) return false;
        return `uid(${this.ruleBlock(rule, claims)})`;
      case "not": {
        // A traversal rule that cannot run (a claim missing) denies, negated or not (as Dgraph).
        if (rule.rule.kind === "query" && !rule.rule.variables.every((v) => v in claims)) return false;
        const inner = this.evaluate(rule.rule);
        return typeof inner === "boolean" ? !inner : `NOT (${inner})`;
      }
      case "and":
      case "or": {
        const unit = rule.kind === "and";
        const parts: string[] = [];
        const mark = this.blocks.length;
        for (const r of rule.rules) {
          const o = this.evaluate(r);
          if (o === !unit) {
            this.blocks.length = mark; // the blocks of the parts before are not used
            return !unit;
          }
          if (o !== unit) parts.push(o as string);
        }
        if (parts.length === 0) return unit;
        return parts.length === 1 ? parts[0] : `(${parts.join(unit ? " AND " : " OR ")})`;
      }
    }
  }

  /** `<T>_Auth<n> as var(func: type(T)) @filter(…) @cascade { … }` for a traversal rule; its var name. */
  private ruleBlock(rule: Extract<AuthRule, { kind: "query" }>, claims: Claims): string {
    const schema: GraphQLSchema = this.session.build.schema;
    const type = this.model.types.get(rule.typeName) as TypeModel;
    const name = `${type.name}_Auth${++this.counter}`;
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of rule.document.definitions)
      if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    const rc: RewriteContext = { schema, model: this.model, variables: { ...claims }, fragments };
    const def = schema.getQueryType()?.getFields()[rule.field.name.value];
    if (def === undefined) return "uid()";
    const args = getArgumentValues(def, rule.field, rc.variables);
    const { params, filter } = edgeModifiers(rc, type, args, undefined);
    const funcArgs = [`func: type(${type.dgraphType})`, ...params].join(", ");
    const body = selectionDql(rc, getNamedType(def.type) as GraphQLCompositeType, rule.field.selectionSet);
    this.blocks.push(
      `${name} as var(${funcArgs})${filter === undefined ? "" : ` @filter(${filter})`} @cascade { ${body} }`,
    );
    return name;
  }
}

function rbacHolds(rule: Extract<AuthRule, { kind: "rbac" }>, claims: Claims): boolean {
  const value = claims[rule.variable];
  const values = Array.isArray(value) ? value : [value];
  switch (rule.operator) {
    case "eq":
      return values.some((v) => v === rule.operand);
    case "in":
      return values.some((v) => (rule.operand as unknown[]).includes(v));
    case "regexp":
      return values.some((v) => typeof v === "string" && (rule.regex as RegExp).test(v));
  }
}

/**
 * After an add's writes (in its transaction, before the commit): every new node must satisfy its type's
 * add rule, else AuthorizationFailedError. `created` are the blank labels (`_:<Type>_<n>`) of the new
 * nodes and `blanks` the uids they got.
 */
export async function checkAddRules(
  tx: DqlTransaction,
  rewriter: AuthRewriter,
  model: GraphQLSchemaBuild["model"],
  created: readonly string[],
  blanks: ReadonlyMap<string, string>,
): Promise<void> {
  const byType = new Map<string, string[]>();
  for (const label of created) {
    const m = /^_:(.+)_\d+$/.exec(label);
    const uid = blanks.get(label);
    if (m === null || uid === undefined) continue;
    byType.set(m[1], [...(byType.get(m[1]) ?? []), uid]);
  }
  for (const [typeName, uids] of byType) {
    const type = model.types.get(typeName);
    if (type === undefined) continue;
    const outcome = rewriter.outcome(type, "add");
    if (outcome === true) {
      rewriter.takeBlocks();
      continue;
    }
    if (outcome === false) throw new AuthorizationFailedError();
    const data = await tx.query<{ q?: unknown[] }>(
      `query {\n${rewriter.takeBlocks()}  q(func: uid(${uids.join(", ")})) @filter(${outcome}) { uid }\n}`,
    );
    if ((data.q?.length ?? 0) !== uids.length) throw new AuthorizationFailedError();
  }
}

/**
 * Whether existing node `uid` of `type` passes the type's `op` rule, read in the mutation's transaction
 * (an upsert's update of a node it names by `@id`).
 */
export async function nodePassesRule(
  tx: DqlTransaction,
  rewriter: AuthRewriter,
  type: TypeModel,
  uid: string,
  op: AuthOperation,
): Promise<boolean> {
  const outcome = rewriter.outcome(type, op);
  const blocks = rewriter.takeBlocks();
  if (typeof outcome === "boolean") return outcome;
  const data = await tx.query<{ q?: unknown[] }>(
    `query {\n${blocks}  q(func: uid(${uid})) @filter(${outcome}) { uid }\n}`,
  );
  return (data.q?.length ?? 0) > 0;
}
