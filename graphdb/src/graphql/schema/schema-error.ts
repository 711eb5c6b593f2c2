/**
 * A GraphQL schema that Dgraph's rules reject. Messages are Dgraph's texts; `line` is the position in the
 * submitted SDL, shown as `input:LINE: ` when the error reaches a client (as Dgraph's /admin does).
 */
import { DgraphError } from "../../core/errors.ts";

export interface SchemaProblem {
  message: string;
  /** 1-based line and column in the input SDL, when the problem is tied to a definition. */
  line?: number;
  column?: number;
}

export class GraphQLSchemaError extends DgraphError {
  readonly problems: SchemaProblem[];

  constructor(problems: SchemaProblem[]) {
    super(problems.map(problemText).join("\n"), "Error");
    this.name = "GraphQLSchemaError";
    this.problems = problems;
  }
}

/** `input:LINE: message`, or the bare message without a position. */
export function problemText(problem: SchemaProblem): string {
  return problem.line === undefined ? problem.message : `input:${problem.line}: ${problem.message}`;
}
