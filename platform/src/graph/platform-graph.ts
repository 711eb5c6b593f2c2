/**
 * The platform's embedded graph database: one store, a Dgraph namespace per app, and authentication on
 * every transport. The galaxy (namespace 0) belongs to the operator: its groot's password is generated
 * into `<dataDir>/graphdb-groot-password` on first start (and set again at every start, so the file is
 * the truth). Apps never see it; each gets its own namespace and groot (AppNamespaces).
 */
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createGraphDB,
  createGrpcServer,
  createHttpServer,
  GALAXY_NAMESPACE,
  type GraphDB,
  type LambdaCaller,
} from "@trellis/graphdb";
import type { Logger } from "pino";
import { displayHost } from "../display-host.ts";
import { deriveSecret } from "../secrets/derived-secret.ts";

export interface PlatformGraphOptions {
  dataDir: string;
  masterKey: Uint8Array;
  logger: Logger;
  /** Serve HTTP and gRPC (default true); the engine is opened either way (the console uses it in-process). */
  serve: boolean;
  httpPort: number;
  grpcPort: number;
  host: string;
  /** Serves the `@lambda` fields of the database's `/graphql` (each namespace's app: app-lambdas.ts). */
  lambda?: LambdaCaller;
}

export interface PlatformGraph {
  engine: GraphDB;
  /** The HTTP and gRPC addresses; empty when not serving. */
  httpUrl: string;
  grpcTarget: string;
  /** The file holding the galaxy groot's password (the operator's login). */
  grootPasswordFile: string;
  /**
   * The `dgraph://` connection string of a namespace's groot over gRPC on loopback; undefined when the
   * database is not served.
   */
  connectionString(namespace: number, password: string): string | undefined;
  close(): Promise<void>;
}

const GROOT_PASSWORD_FILE = "graphdb-groot-password";

export async function openPlatformGraph(options: PlatformGraphOptions): Promise<PlatformGraph> {
  const { dataDir, logger } = options;
  const db = createGraphDB({ dir: join(dataDir, "graphdb"), acl: true });
  const closers: (() => Promise<void>)[] = [() => db.close()];
  const close = async () => {
    for (const c of closers.reverse())
      await c().catch((err) => logger.warn({ err }, "graph shutdown step failed"));
  };
  try {
    const grootPasswordFile = join(dataDir, GROOT_PASSWORD_FILE);
    await db.engine.setGrootPassword(GALAXY_NAMESPACE, await loadGrootPassword(grootPasswordFile, logger));
    if (!options.serve) {
      return {
        engine: db.engine,
        httpUrl: "",
        grpcTarget: "",
        grootPasswordFile,
        connectionString: () => undefined,
        close,
      };
    }
    // Both transports sign and check the same JWTs: a token from /login works over gRPC too.
    const aclSecret = new TextEncoder().encode(deriveSecret(options.masterKey, "graphdb-acl-jwt"));
    const http = createHttpServer(db.engine, {
      requireAuth: true,
      aclSecret,
      logger,
      graphql: { lambda: options.lambda },
    });
    const { port: httpPort } = await http.listen(options.httpPort, options.host);
    closers.push(() => http.close());
    const grpc = createGrpcServer(db.engine, { requireAuth: true, aclSecret, logger });
    const { port: grpcPort } = await grpc.listen(options.grpcPort, options.host);
    closers.push(() => grpc.close());
    const shown = displayHost(options.host);
    // Apps reach the database on this machine, whatever address it listens on.
    const loopback = options.host === "::" || options.host === "::1" ? "[::1]" : "127.0.0.1";
    return {
      engine: db.engine,
      httpUrl: `http://${shown}:${httpPort}`,
      grpcTarget: `${shown}:${grpcPort}`,
      grootPasswordFile,
      connectionString: (namespace, password) =>
        `dgraph://groot:${encodeURIComponent(password)}@${loopback}:${grpcPort}?sslmode=disable&namespace=${namespace}`,
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** The galaxy groot's password: generated (0600) on first start, then read. */
async function loadGrootPassword(file: string, logger: Logger): Promise<string> {
  try {
    await writeFile(file, `${randomBytes(24).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
    logger.info({ file }, "generated the graph database's groot password (namespace 0, the operator's)");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const password = (await readFile(file, "utf8")).trim();
  if (password.length < 16) {
    throw new Error(
      `${file}: the groot password must be at least 16 characters; delete the file to generate one`,
    );
  }
  return password;
}
