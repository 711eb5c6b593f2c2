/**
 * Which namespace of the platform's graph database is each app's. An app gets its own namespace (its own
 * data, schema, types and groot) on first use — its first load or the console's Graph tab — and loses it
 * with the app: deleting the app drops the namespace, so a new app of the same name starts empty.
 *
 * The map is kept in `<dataDir>/graph-namespaces.json`, next to the database it indexes (each platform
 * node has its own embedded database). A namespace's groot password is derived from the master key and
 * the namespace id: never stored, never given to the app's code (the host logs in for it).
 */
import { randomBytes } from "node:crypto";
import { open, readFile, rename } from "node:fs/promises";
import type { Logger } from "pino";
import { z } from "zod";
import { deriveSecret } from "../secrets/derived-secret.ts";
import type { GraphOperations } from "./graph-operations.ts";

export interface AppGraph {
  namespace: number;
  /** The namespace's groot password. */
  password: string;
}

/** How often a known namespace is checked to still exist (on use, in the background). */
const VERIFY_EVERY_MS = 10_000;

const MapFile = z.object({
  version: z.literal(1),
  apps: z.record(z.string(), z.number().int().positive()),
});

export class AppNamespaces {
  private readonly creating = new Map<string, Promise<AppGraph>>();
  /** When each app's namespace was last seen to exist. */
  private readonly verifiedAt = new Map<string, number>();
  private readonly lostListeners: ((app: string) => void)[] = [];
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly graph: GraphOperations,
    private readonly file: string,
    private readonly masterKey: Uint8Array,
    private readonly logger: Logger,
    private readonly apps: Map<string, number>,
  ) {}

  static async open(
    graph: GraphOperations,
    file: string,
    masterKey: Uint8Array,
    logger: Logger,
  ): Promise<AppNamespaces> {
    let apps = new Map<string, number>();
    try {
      const parsed = MapFile.safeParse(JSON.parse(await readFile(file, "utf8")));
      if (!parsed.success) {
        throw new Error(
          `${file} is not a namespace map (${parsed.error.issues[0]?.message}); restore it from a backup`,
        );
      }
      apps = new Map(Object.entries(parsed.data.apps));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    return new AppNamespaces(graph, file, masterKey, logger, apps);
  }

  /**
   * The app's namespace, created on first use. A known one is answered at once, without waiting for the
   * database (an app's cold start must not wait behind another tenant's heavy graph work); whether it still
   * exists is checked meanwhile, at most every VERIFY_EVERY_MS, and one dropped behind the platform's back
   * (the operator's DropNamespace or galaxy drop-all) is forgotten: `onLost` listeners unload the app, and
   * its next use creates a new namespace.
   */
  async of(app: string): Promise<AppGraph> {
    const known = this.apps.get(app);
    if (known !== undefined) {
      this.verifyLater(app, known);
      return this.credentials(known);
    }
    let pending = this.creating.get(app);
    if (!pending) {
      pending = this.create(app).finally(() => this.creating.delete(app));
      this.creating.set(app, pending);
    }
    return pending;
  }

  /** Calls `listener` with an app whose namespace was found dropped behind the platform's back. */
  onLost(listener: (app: string) => void): void {
    this.lostListeners.push(listener);
  }

  private verifyLater(app: string, namespace: number): void {
    const now = Date.now();
    if (now - (this.verifiedAt.get(app) ?? 0) < VERIFY_EVERY_MS) return;
    this.verifiedAt.set(app, now);
    this.graph.listNamespaces().then(
      (namespaces) => {
        if (namespaces.includes(namespace) || this.apps.get(app) !== namespace) return;
        this.apps.delete(app);
        this.verifiedAt.delete(app);
        void this.save();
        this.logger.warn(
          { app, namespace },
          "the app's graph namespace was dropped; a new one is made on next use",
        );
        for (const listener of this.lostListeners) listener(app);
      },
      () => this.verifiedAt.delete(app),
    );
  }

  /** The app's namespace id when it has one. */
  find(app: string): number | undefined {
    return this.apps.get(app);
  }

  /** The app a namespace belongs to, if any (the galaxy and unknown namespaces belong to none). */
  appOf(namespace: number): string | undefined {
    for (const [app, ns] of this.apps) if (ns === namespace) return app;
    return undefined;
  }

  /** Drops the app's namespace (every key of its data and schema) and forgets it. */
  async drop(app: string): Promise<void> {
    await this.creating.get(app)?.catch(() => undefined);
    const namespace = this.apps.get(app);
    if (namespace === undefined) return;
    if ((await this.graph.listNamespaces()).includes(namespace)) await this.graph.dropNamespace(namespace);
    this.apps.delete(app);
    this.verifiedAt.delete(app);
    await this.save();
    this.logger.info({ app, namespace }, "dropped the app's graph namespace");
  }

  private async create(app: string): Promise<AppGraph> {
    // The password is derived from the id, which the engine picks: create, then give groot its password.
    const namespace = await this.graph.createNamespace(randomBytes(24).toString("base64url"));
    await this.graph.setGrootPassword(namespace, this.passwordOf(namespace));
    this.apps.set(app, namespace);
    await this.save();
    this.logger.info({ app, namespace }, "created the app's graph namespace");
    return this.credentials(namespace);
  }

  private credentials(namespace: number): AppGraph {
    return { namespace, password: this.passwordOf(namespace) };
  }

  private passwordOf(namespace: number): string {
    return deriveSecret(this.masterKey, `graphdb-namespace-${namespace}-groot`);
  }

  /** Writes the map atomically (a temporary file, fsync, rename), one write at a time. */
  private save(): Promise<void> {
    const text = `${JSON.stringify({ version: 1, apps: Object.fromEntries(this.apps) }, null, 2)}\n`;
    const write = async () => {
      const tmp = `${this.file}.tmp`;
      const handle = await open(tmp, "w", 0o600);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, this.file);
    };
    this.writing = this.writing.then(write, write);
    return this.writing;
  }
}
