import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { DEFAULT_MAX_NESTING, nestingProblem } from "@trellis/graphdb";
import type { Plugin } from "graphql-yoga";
import { GraphQLError } from "./graphql-js.ts";

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
  /**
   * Nesting of lists, objects, arguments and selections in the document, and of lists and objects in the
   * variables, measured before parsing (graphql-js recurses: 2,000 nested lists overflowed its stack).
   */
  maxNesting: number;
}

export const DEFAULT_OPERATION_LIMITS: OperationLimits = {
  maxAliases: 32,
  maxDepth: 16,
  maxTokens: 5_000,
  maxCost: 20_000,
  maxDirectives: 50,
  maxCalls: 32,
  maxNesting: DEFAULT_MAX_NESTING,
};

export function operationLimitPlugins(limits: OperationLimits): Plugin[] {
  return [
    nestingLimitPlugin(limits.maxNesting),
    maxTokensPlugin({ n: limits.maxTokens }),
    maxAliasesPlugin({ n: limits.maxAliases }),
    maxDepthPlugin({ n: limits.maxDepth, ignoreIntrospection: true }),
    maxDirectivesPlugin({ n: limits.maxDirectives }),
    costLimitPlugin({ maxCost: limits.maxCost, ignoreIntrospection: true }),
  ] as Plugin[];
}

/** Refuses a request nesting deeper than `limit`, before yoga parses it (a GraphQL error, HTTP 400). */
function nestingLimitPlugin(limit: number): Plugin {
  return {
    onParams({ params }) {
      const problem = nestingProblem(params.query ?? "", params.variables, limit);
      if (problem !== undefined) {
        throw new GraphQLError(problem, { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
      }
    },
  };
}
