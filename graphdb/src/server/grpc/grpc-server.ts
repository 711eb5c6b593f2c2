/**
 * Dgraph's gRPC API (`api.Dgraph`: Login, Query, Alter, CommitOrAbort, CheckVersion, and v25's
 * CreateNamespace, DropNamespace, ListNamespaces) over a GraphEngine, so the unchanged `dgraph-js` client
 * and Dgraph's other gRPC clients work. It calls the same engine as the HTTP server — one engine, two
 * transports: a transaction begun over HTTP can be continued over gRPC — and the same access checks
 * (`guardEngine`): the ACL JWT comes in the `accessjwt` metadata (each call runs in its namespace), the
 * poor-man's-auth secret in `auth-token`. With ACL every method but Login and CheckVersion needs a token.
 */
import {
  type handleUnaryCall,
  Metadata,
  type MethodDefinition,
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServiceDefinition,
  status,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { type Logger, pino } from "pino";
import { DgraphError } from "../../core/errors.ts";
import type {
  AlterOperation,
  GraphEngine,
  Latency,
  MutateRequest,
  MutationInput,
  QueryRequest,
  TxnContext,
} from "../../engine/engine-api.ts";
import { Acl } from "../acl.ts";
import { validateOperation } from "../alter-operation.ts";
import { DEFAULT_BODY_LIMIT } from "../body.ts";
import { type Guards, guardEngine, type RequestCredentials, type RequestEngine } from "../guarded-engine.ts";
import { DGRAPH_COMPAT_VERSION } from "../http-server.ts";
import { grpcFailure, serviceError } from "./grpc-errors.ts";
import { nquadsText } from "./grpc-nquads.ts";
import {
  type ApiLatency,
  type ApiLoginRequest,
  type ApiMutation,
  type ApiOperation,
  type ApiRequest,
  type ApiResponse,
  type ApiTxnContext,
  apiPackageDefinition,
  type DropOp,
  dgraphServiceDefinition,
  encodeJwt,
  encodeResponse,
} from "./grpc-proto.ts";
import { checkWireFormat, WireShapes } from "./grpc-wire-check.ts";
import { namespaceMethods } from "./methods/namespaces.ts";

/** gRPC metadata keys (grpc-js lower-cases them; dgraph-js sends `accessJwt`). */
export const ACCESS_JWT_METADATA = "accessjwt";
export const AUTH_TOKEN_METADATA = "auth-token";

export interface GrpcServerOptions {
  /**
   * Enables ACL: Login (into a namespace), access JWTs on every call but Login and CheckVersion, each
   * served in its token's namespace, groot/guardians in each namespace's graph.
   */
  acl?: boolean;
  /** Every method but Login and CheckVersion needs a valid access JWT: the same as `acl` (implied) here. */
  requireAuth?: boolean;
  /** HMAC secret for the ACL JWTs (≥ 32 bytes); required when `acl` is on. Use the HTTP server's. */
  aclSecret?: Uint8Array;
  /** Access-token lifetime in ms (default 6 h). */
  aclAccessTtlMs?: number;
  /** Refresh-token lifetime in ms (default 30 days). */
  aclRefreshTtlMs?: number;
  /** Shared secret required in the `auth-token` metadata for Alter. */
  authToken?: string;
  /**
   * Largest request message in bytes (default 32 MiB, as the HTTP body limit). Bigger messages are
   * refused with RESOURCE_EXHAUSTED `Received message larger than max (N vs. LIMIT)`. Responses are not
   * limited (clients set their own receive limit; dgraph-js's default is 4 MiB).
   */
  maxMessageBytes?: number;
  /** Structured logger; calls are logged at debug, one line each. */
  logger?: Logger;
  /** Tag reported by CheckVersion (default DGRAPH_COMPAT_VERSION). */
  version?: string;
}

export interface GrpcServer {
  /** Prepares ACL state (groot) and starts listening; port 0 picks a free port. */
  listen(port: number, host: string): Promise<{ port: number }>;
  /** Stops accepting calls and waits (up to 5 s) for in-flight ones. Does not close the engine. */
  close(): Promise<void>;
}

const EMPTY = Buffer.alloc(0);
const SHUTDOWN_GRACE_MS = 5_000;
const DROP_OPS: readonly DropOp[] = ["NONE", "ALL", "DATA", "ATTR", "TYPE"];

/** What the request deserializer hands over instead of throwing, so the reply can say what was wrong. */
class MalformedMessage {
  constructor(readonly reason: string) {}
}

type Handler<Req, Res> = (call: ServerUnaryCall<Req, Res>) => Promise<Res>;

function metadataString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : value.toString("utf8");
}

/** Milliseconds left before the call's deadline; undefined when it has none. */
function remainingMs(call: ServerUnaryCall<unknown, unknown>): number | undefined {
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  if (!Number.isFinite(at)) return undefined;
  return Math.max(1, at - Date.now());
}

function txnMessage(txn: TxnContext, dropKeys = false): Partial<ApiTxnContext> {
  return {
    start_ts: txn.start_ts,
    commit_ts: txn.commit_ts ?? 0,
    aborted: txn.aborted ?? false,
    keys: dropKeys ? [] : (txn.keys ?? []),
    preds: txn.preds ?? [],
    hash: txn.hash ?? "",
  };
}

function latencyMessage(latency: Latency): ApiLatency {
  return {
    parsing_ns: Math.round(latency.parsing_ns),
    processing_ns: Math.round(latency.processing_ns),
    encoding_ns: Math.round(latency.encoding_ns),
    assign_timestamp_ns: Math.round(latency.assign_timestamp_ns),
    total_ns: Math.round(latency.total_ns),
  };
}

/** `api.Mutation` → the engine's input: JSON and N-Quad bytes as text, NQuad messages as N-Quad lines. */
export function mutationInput(mu: ApiMutation): MutationInput {
  const input: MutationInput = {};
  if (mu.set_json.length > 0) input.setJson = mu.set_json.toString("utf8");
  if (mu.delete_json.length > 0) input.deleteJson = mu.delete_json.toString("utf8");
  const setNquads = [mu.set_nquads.toString("utf8"), nquadsText(mu.set)].filter((s) => s !== "");
  const delNquads = [mu.del_nquads.toString("utf8"), nquadsText(mu.del)].filter((s) => s !== "");
  if (setNquads.length > 0) input.setNquads = setNquads.join("\n");
  if (delNquads.length > 0) input.delNquads = delNquads.join("\n");
  if (mu.cond !== "") input.cond = mu.cond;
  return input;
}

/** `api.Operation` → the engine's AlterOperation, with Dgraph's structural checks. */
export function alterOperation(msg: ApiOperation): AlterOperation {
  const op: AlterOperation = {};
  if (msg.schema !== "") op.schema = msg.schema;
  if (msg.drop_attr !== "") op.dropAttr = msg.drop_attr;
  if (msg.drop_all) op.dropAll = true;
  if (!DROP_OPS.includes(msg.drop_op)) throw new DgraphError(`invalid drop_op ${String(msg.drop_op)}`);
  if (msg.drop_op !== "NONE") op.dropOp = msg.drop_op;
  if (msg.drop_value !== "") op.dropValue = msg.drop_value;
  if (msg.run_in_background) op.runInBackground = true;
  validateOperation(op);
  return op;
}

export function createGrpcServer(engine: GraphEngine, options: GrpcServerOptions = {}): GrpcServer {
  let acl: Acl | undefined;
  if (options.acl || options.requireAuth) {
    if (!options.aclSecret) {
      throw new Error(
        `${options.requireAuth ? "requireAuth" : "ACL"} needs an aclSecret (at least 32 bytes) to sign and check JWTs`,
      );
    }
    acl = new Acl(engine, {
      secret: options.aclSecret,
      accessTtlMs: options.aclAccessTtlMs,
      refreshTtlMs: options.aclRefreshTtlMs,
    });
  }
  const guards: Guards = { acl, authToken: options.authToken || undefined };
  const logger = options.logger ?? pino({ level: "silent" });
  const version = options.version ?? DGRAPH_COMPAT_VERSION;
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_BODY_LIMIT;
  if (!Number.isInteger(maxMessageBytes) || maxMessageBytes <= 0) {
    throw new Error(`maxMessageBytes must be a positive integer, got ${maxMessageBytes}`);
  }

  const credentials = (metadata: Metadata, hash: string): RequestCredentials => ({
    accessToken: metadataString(metadata, ACCESS_JWT_METADATA),
    authToken: metadataString(metadata, AUTH_TOKEN_METADATA),
    hash,
  });
  const guarded = (metadata: Metadata, hash: string): RequestEngine =>
    guardEngine(engine, guards, credentials(metadata, hash));
  const namespaces = namespaceMethods(engine, guards, (call) => credentials(call.metadata, ""));

  /** Adapts a promise-returning handler: statuses for failures, one debug line per call. */
  function unary<Req, Res>(method: string, handler: Handler<Req, Res>): handleUnaryCall<Req, Res> {
    return (call, callback) => {
      const started = performance.now();
      const done = (code: number) => {
        if (logger.isLevelEnabled("debug")) {
          logger.debug(
            {
              method,
              code,
              ms: Math.round((performance.now() - started) * 1000) / 1000,
              peer: call.getPeer(),
            },
            "grpc call",
          );
        }
      };
      const request = call.request as unknown;
      if (request instanceof MalformedMessage) {
        // grpc-go's status for a request that does not decode.
        done(status.INTERNAL);
        callback({
          code: status.INTERNAL,
          details: `grpc: error unmarshalling request: ${request.reason}`,
          metadata: new Metadata(),
        });
        return;
      }
      handler(call).then(
        (response) => {
          done(0);
          callback(null, response);
        },
        (error: unknown) => {
          const failure = grpcFailure(error);
          if (failure.unexpected !== undefined) {
            logger.error({ err: failure.unexpected, method }, "grpc call failed");
          }
          done(failure.code);
          callback(serviceError(failure));
        },
      );
    };
  }

  const login: Handler<ApiLoginRequest, ApiResponse> = async (call) => {
    if (!acl) throw new DgraphError("ACL is not enabled on this server: start it with --acl");
    const req = call.request;
    const tokens = await acl.login({
      userid: req.userid,
      password: req.password,
      refreshToken: req.refresh_token,
      namespace: req.namespace,
    });
    return { json: encodeJwt(tokens.accessJWT, tokens.refreshJWT) };
  };

  const query: Handler<ApiRequest, ApiResponse> = async (call) => {
    const req = call.request;
    const db = guarded(call.metadata, req.hash);
    const timeoutMs = remainingMs(call);
    const vars = Object.keys(req.vars).length > 0 ? req.vars : undefined;

    if (req.mutations.length > 0) {
      if (req.read_only) throw new DgraphError("A read-only transaction cannot run mutations");
      const commitNow = req.commit_now || req.mutations.some((m) => m.commit_now);
      const mreq: MutateRequest = {
        startTs: req.start_ts,
        commitNow,
        mutations: req.mutations.map(mutationInput),
      };
      if (req.query.trim() !== "") {
        mreq.query = req.query;
        if (vars) mreq.vars = vars;
      }
      if (timeoutMs !== undefined) mreq.timeoutMs = timeoutMs;
      const res = await db.mutate(mreq);
      return {
        json: res.queriesJson === undefined ? EMPTY : Buffer.from(res.queriesJson),
        // With commit_now the keys are dropped: there is nothing left for the client to commit.
        txn: txnMessage(res.txn, commitNow),
        latency: latencyMessage(res.latency),
        uids: res.uids,
      };
    }

    if (req.query.trim() === "") throw new DgraphError("empty request");
    const qreq: QueryRequest = { query: req.query, vars, startTs: req.start_ts };
    if (req.start_ts === 0) {
      if (req.read_only) qreq.readOnly = true;
      if (req.best_effort) qreq.bestEffort = true;
    }
    const rdf = req.resp_format === "RDF";
    if (rdf) qreq.respFormat = "rdf";
    if (timeoutMs !== undefined) qreq.timeoutMs = timeoutMs;
    const res = await db.query(qreq);
    const headers = new Metadata();
    headers.set("dgraph-toucheduids", String(res.metrics?._total ?? 0));
    call.sendMetadata(headers);
    return {
      json: rdf ? EMPTY : Buffer.from(res.json),
      rdf: rdf ? Buffer.from(res.rdf ?? "") : EMPTY,
      txn: txnMessage(res.txn),
      latency: latencyMessage(res.latency),
      metrics: { num_uids: res.metrics ?? {} },
    };
  };

  const alter: Handler<ApiOperation, Record<string, never>> = async (call) => {
    const op = alterOperation(call.request);
    await guarded(call.metadata, "").alter(op);
    return {};
  };

  const commitOrAbort: Handler<ApiTxnContext, Partial<ApiTxnContext>> = async (call) => {
    const tc = call.request;
    const db = guarded(call.metadata, tc.hash);
    if (tc.aborted) {
      await db.commit({ startTs: tc.start_ts, abort: true });
      return { start_ts: tc.start_ts, aborted: true };
    }
    const txn = await db.commit({ startTs: tc.start_ts, keys: tc.keys, preds: tc.preds });
    return { start_ts: txn.start_ts, commit_ts: txn.commit_ts ?? 0 };
  };

  const checkVersion: Handler<unknown, { tag: string }> = async () => ({ tag: version });

  const implementation: UntypedServiceImplementation = {
    Login: unary("Login", login),
    Query: unary("Query", query),
    Alter: unary("Alter", alter),
    CommitOrAbort: unary("CommitOrAbort", commitOrAbort),
    CheckVersion: unary("CheckVersion", checkVersion),
    CreateNamespace: unary("CreateNamespace", namespaces.CreateNamespace),
    DropNamespace: unary("DropNamespace", namespaces.DropNamespace),
    ListNamespaces: unary("ListNamespaces", namespaces.ListNamespaces),
  };

  const server = new Server({
    "grpc.max_receive_message_length": maxMessageBytes,
    "grpc.max_send_message_length": -1,
    // Channelz bookkeeping costs ~15 µs per call and nothing here reads it.
    "grpc.enable_channelz": 0,
  });
  server.addService(serviceWithCodecs(dgraphServiceDefinition()), implementation);

  let listening = false;
  return {
    async listen(port, host) {
      if (acl) await acl.ensureGroot();
      const address = host.includes(":") && !host.startsWith("[") ? `[${host}]:${port}` : `${host}:${port}`;
      const bound = await new Promise<number>((resolve, reject) => {
        server.bindAsync(address, ServerCredentials.createInsecure(), (err, actual) =>
          err ? reject(err) : resolve(actual),
        );
      });
      listening = true;
      return { port: bound };
    },
    async close() {
      if (!listening) {
        server.forceShutdown();
        return;
      }
      listening = false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          logger.warn("gRPC calls still running after the grace period: cancelling them");
          server.forceShutdown();
          resolve();
        }, SHUTDOWN_GRACE_MS);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/**
 * The service with strict request deserializers that do not throw: the wire format is checked first
 * (protobufjs alone decodes malformed input leniently), and a message that is not well-formed becomes a
 * MalformedMessage, which the handler reports as grpc-go does — grpc-js would only say
 * `Error deserializing request`. `api.Response` is encoded directly (the hot path).
 */
function serviceWithCodecs(service: ServiceDefinition): ServiceDefinition {
  const shapes = new WireShapes(apiPackageDefinition(), "api");
  const out: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service)) {
    const decode = method.requestDeserialize;
    const types = method as {
      requestType?: { type?: { name?: string } };
      responseType?: { type?: { name?: string } };
    };
    const requestType = types.requestType?.type?.name;
    if (!requestType) throw new Error(`api.Dgraph/${name}: request type unknown`);
    const shape = shapes.shape(`api.${requestType}`);
    out[name] = {
      ...method,
      responseSerialize:
        types.responseType?.type?.name === "Response"
          ? (value: unknown) => encodeResponse(value as ApiResponse)
          : method.responseSerialize,
      requestDeserialize: (bytes: Buffer) => {
        try {
          checkWireFormat(bytes, shape);
          return decode(bytes);
        } catch (e) {
          return new MalformedMessage(e instanceof Error ? e.message : String(e));
        }
      },
    };
  }
  return out as ServiceDefinition;
}
