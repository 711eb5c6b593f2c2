import { DgraphError } from "../core/errors.ts";
import type { SchemaState } from "../schema/schema-state.ts";
import { forgetNamespaceKeys } from "../store/keys.ts";
import { GALAXY_NAMESPACE, Namespace, namespaceHex } from "./namespace.ts";

/**
 * The namespaces that exist, by id. A namespace exists from its creation (its schema is written) until it
 * is dropped; the galaxy always exists. Ids are leased from a persisted counter and never handed out
 * twice, so a token of a dropped namespace can never reach a namespace created later.
 */
export class NamespaceRegistry {
  private readonly byId = new Map<number, Namespace>();
  private maxId: number;

  /** `schemas`: every namespace found in the store; `leased`: the highest id ever handed out. */
  constructor(schemas: ReadonlyMap<number, SchemaState>, leased: number) {
    for (const [id, schema] of schemas) this.byId.set(id, new Namespace(id, schema));
    if (!this.byId.has(GALAXY_NAMESPACE)) this.byId.set(GALAXY_NAMESPACE, new Namespace(GALAXY_NAMESPACE));
    this.maxId = Math.max(leased, ...this.byId.keys());
  }

  get galaxy(): Namespace {
    return this.byId.get(GALAXY_NAMESPACE) as Namespace;
  }

  get(id: number): Namespace | undefined {
    return this.byId.get(id);
  }

  /** The namespace a request names (the galaxy when it names none), or Dgraph-style failure. */
  require(id: number | undefined): Namespace {
    const ns = this.byId.get(id ?? GALAXY_NAMESPACE);
    if (ns === undefined) {
      throw new DgraphError(
        `Namespace ${namespaceHex(id as number)} does not exist (it was dropped or never created): log in to an existing namespace`,
      );
    }
    return ns;
  }

  /** A new namespace under the next unused id, registered at once (persist its lease with its schema). */
  create(): Namespace {
    const id = this.maxId + 1;
    if (!Number.isSafeInteger(id)) throw new DgraphError("Namespace ids are exhausted", "Error");
    this.maxId = id;
    const ns = new Namespace(id);
    this.byId.set(id, ns);
    return ns;
  }

  /** Forgets a dropped namespace (never the galaxy). */
  remove(id: number): void {
    if (id === GALAXY_NAMESPACE) return;
    this.byId.delete(id);
    forgetNamespaceKeys(id);
  }

  /** Forgets every namespace but the galaxy (after a galaxy-wide drop-all). */
  removeAllButGalaxy(): void {
    for (const id of [...this.byId.keys()]) this.remove(id);
  }

  /** Ids of the namespaces that exist, ascending. */
  ids(): number[] {
    return [...this.byId.keys()].sort((a, b) => a - b);
  }

  all(): Iterable<Namespace> {
    return this.byId.values();
  }

  /** The highest id ever handed out (persisted, so ids are never reused). */
  get leased(): number {
    return this.maxId;
  }
}
