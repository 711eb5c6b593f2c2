/**
 * Bounds on one GraphQL operation against the generated API, checked before anything runs: the text's
 * length and tokens (parsing work), the selection depth and the aliases (rewriting and result size).
 * Introspection (GraphiQL's own query is 13 deep) is not counted for depth.
 */
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import type { GraphQLError, ValidationContext, ValidationRule } from "graphql";
import { DEFAULT_MAX_NESTING } from "./nesting-depth.ts";

export interface GraphQLOperationLimits {
  /** Characters of the query text. */
  maxQueryLength: number;
  /** Lexical tokens of the query text. */
  maxTokens: number;
  /** Depth of the selection tree. */
  maxDepth: number;
  /** Aliases in one operation. */
  maxAliases: number;
  /** Nesting of lists, objects, arguments and selections in the text, and of lists and objects in variables. */
  maxNesting: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphQLOperationLimits = {
  maxQueryLength: 100_000,
  maxTokens: 20_000,
  maxDepth: 20,
  maxAliases: 200,
  maxNesting: DEFAULT_MAX_NESTING,
};

/** GraphQL Armor's rules, reporting a refusal as a validation error rather than throwing it. */
export function limitRules(limits: GraphQLOperationLimits): ValidationRule[] {
  const report = {
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
  };
  return [
    maxDepthRule({ n: limits.maxDepth, ignoreIntrospection: true, ...report }) as unknown as ValidationRule,
    maxAliasesRule({ n: limits.maxAliases, ...report }) as unknown as ValidationRule,
  ];
}
