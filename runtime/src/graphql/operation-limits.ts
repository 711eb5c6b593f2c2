import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import type { Plugin } from "graphql-yoga";

/**
 * Bounds on what one GraphQL request to an app may ask for, checked before any function runs (GraphQL
 * Armor's validation rules), plus a hard bound on the function calls one request makes, which the
 * resolvers count: every root field, alias or not, is one wasm call, and a request must not be able to
 * occupy an app's workers (or the host) with thousands of them.
 */
export interface OperationLimits {
  /** Aliases in one operation. */
  maxAliases: number;
  /** Depth of the selection tree. */
  maxDepth: number;
  /** Lexical tokens of the document (bounds parsing work). */
  maxTokens: number;
  /** GraphQL Armor's cost estimate (objects and scalars weighted by depth). */
  maxCost: number;
  /** Directives in one operation. */
  maxDirectives: number;
  /** Function calls one request makes. */
  maxCalls: number;
}

export const DEFAULT_OPERATION_LIMITS: OperationLimits = {
  maxAliases: 32,
  maxDepth: 16,
  maxTokens: 5_000,
  maxCost: 20_000,
  maxDirectives: 50,
  maxCalls: 32,
};

export function operationLimitPlugins(limits: OperationLimits): Plugin[] {
  return [
    maxTokensPlugin({ n: limits.maxTokens }),
    maxAliasesPlugin({ n: limits.maxAliases }),
    maxDepthPlugin({ n: limits.maxDepth, ignoreIntrospection: true }),
    maxDirectivesPlugin({ n: limits.maxDirectives }),
    costLimitPlugin({ maxCost: limits.maxCost, ignoreIntrospection: true }),
  ] as Plugin[];
}
