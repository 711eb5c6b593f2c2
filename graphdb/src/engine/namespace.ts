import { SchemaState } from "../schema/schema-state.ts";
import { GALAXY_NAMESPACE, type NamespaceKeys, namespaceKeys } from "../store/keys.ts";

export { GALAXY_NAMESPACE };

/**
 * One namespace (Dgraph's multi-tenancy unit, a uint64 id; 0 is the galaxy): its own schema and types,
 * and the keys of its own predicates. Requests in one namespace read and write through these only, so the
 * data, schema, types and indexes of every other namespace are out of their reach.
 */
export class Namespace {
  readonly schema: SchemaState;
  readonly keys: NamespaceKeys;
  /**
   * Predicates an alter is rebuilding the derived keys of, or declaring: commits writing them are refused
   * until it is done (their index would miss the commit).
   */
  readonly altering = new Set<string>();

  constructor(
    readonly id: number,
    schema = new SchemaState(),
  ) {
    this.schema = schema;
    this.keys = namespaceKeys(id);
  }
}

/** `0x5`: a namespace as Dgraph writes one in messages (`%#x`). */
export function namespaceHex(id: number): string {
  return `0x${id.toString(16)}`;
}
