/**
 * DQL on a `graphdb` connection through the stock `dgraph-js` gRPC client, so the same app works against
 * the Trellis graph database and against Dgraph. Credentials ride in per-call metadata (a bearer token,
 * or a Dgraph Cloud API key) so they work on plaintext loopback channels too, where grpc-js refuses
 * call credentials. Under a deployed egress policy the target's host is resolved and checked first, and
 * the channel is pinned to the checked address (TLS still verifies the hostname).
 */
import {
  type ChannelCredentials,
  type ChannelOptions,
  type Client,
  credentials,
  Metadata,
} from "@grpc/grpc-js";
import { type DgraphConnectionString, isLoopbackHost, parseGrpcTarget } from "@trellis/graphdb";
import * as dgraph from "dgraph-js";
import type { EgressPolicy } from "../egress/egress-policy.ts";
import { decodeGraphAnswer, type GraphAnswer } from "./graph-answer.ts";

export interface GraphClientOptions {
  /** Deadline of each call. */
  timeoutMs: number;
  /**
   * Where the channel may go; absent or permissive: the target as given. The platform's own graph
   * database (the loopback redirect, graph-capability.ts) is reached without one.
   */
  egress?: EgressPolicy;
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "::1"];

export interface GraphMutateRequest {
  query?: string;
  vars?: Record<string, unknown>;
  mutations: {
    setJson?: unknown;
    deleteJson?: unknown;
    setNquads?: string;
    delNquads?: string;
    cond?: string;
  }[];
}

/** Whether a `grpcTarget` (`host:port` or `dgraph://…`) names this machine. */
export function isLoopbackTarget(grpcTarget: string): boolean {
  try {
    return isLoopbackHost(parseGrpcTarget(grpcTarget).host);
  } catch {
    return false;
  }
}

export class GraphClient {
  private readonly target: DgraphConnectionString;
  private readonly channel: ChannelCredentials;
  private readonly tls: boolean;
  private opened: Promise<{ stub: dgraph.DgraphClientStub; client: dgraph.DgraphClient }> | undefined;
  private stub: dgraph.DgraphClientStub | undefined;
  private closed = false;
  private readonly authorization: string | undefined;
  private login: Promise<unknown> | undefined;

  /**
   * `grpcTarget` is `host:port` (plaintext to loopback hosts, TLS otherwise) or a `dgraph://` connection
   * string (its `sslmode`, `bearertoken`, `apikey` and user/password as dgraph-js reads them). `key` is
   * sent as a bearer token, or as an API key to Dgraph Cloud hosts.
   */
  constructor(
    grpcTarget: string,
    key: string | undefined,
    private readonly options: GraphClientOptions,
  ) {
    this.target = parseGrpcTarget(grpcTarget);
    const t = this.target;
    const plaintext = grpcTarget.startsWith("dgraph://")
      ? t.sslmode === "disable"
      : LOOPBACK_HOSTS.includes(t.host.toLowerCase());
    this.tls = !plaintext;
    this.channel = plaintext
      ? credentials.createInsecure()
      : t.sslmode === "require"
        ? credentials.createSsl(null, null, null, { checkServerIdentity: () => undefined })
        : credentials.createSsl();
    if (key) this.authorization = t.host.includes("cloud.dgraph.io") ? key : `Bearer ${key}`;
    else if (t.bearerToken) this.authorization = `Bearer ${t.bearerToken}`;
    else if (t.apiKey) this.authorization = t.apiKey;
  }

  /** The stub and client, on first use: the channel goes to the target, or to its checked address. */
  private open(): Promise<{ stub: dgraph.DgraphClientStub; client: dgraph.DgraphClient }> {
    this.opened ??= this.channelTarget().then(
      ({ address, options }) => {
        if (this.closed) throw new Error("the graph connection is closed");
        this.stub = new dgraph.DgraphClientStub(address, this.channel, options);
        return { stub: this.stub, client: new dgraph.DgraphClient(this.stub) };
      },
      (e: unknown) => {
        this.opened = undefined;
        throw e;
      },
    );
    return this.opened;
  }

  /**
   * `host:port` as given, or under a deployed egress policy the first address of the host that the policy
   * permits (`ipv4:…`/`ipv6:…`, so grpc-js resolves nothing more), with the hostname kept as the
   * authority and the name TLS verifies.
   */
  private async channelTarget(): Promise<{ address: string; options: ChannelOptions }> {
    const { egress } = this.options;
    const t = this.target;
    if (!egress || egress.permissive) return { address: t.target, options: {} };
    const [first] = await egress.permitted(t.host, t.port);
    const address =
      first.family === 6 ? `ipv6:[${first.address}]:${t.port}` : `ipv4:${first.address}:${t.port}`;
    const options: ChannelOptions = { "grpc.default_authority": t.target };
    if (this.tls) options["grpc.ssl_target_name_override"] = t.host;
    return { address, options };
  }

  /** A fresh metadata object per call: the stub appends its access JWT to the one it is given. */
  private metadata(): Metadata {
    const md = new Metadata();
    if (this.authorization) md.set("authorization", this.authorization);
    return md;
  }

  /** The call's deadline: the connection's timeout, or sooner when the function's own time ends first. */
  private callOptions(deadline?: number) {
    return { deadline: Math.min(deadline ?? Number.POSITIVE_INFINITY, Date.now() + this.options.timeoutMs) };
  }

  /**
   * Logs in once when the connection string carries a user (ACL), as dgraph-js `open()` does, into its
   * `namespace` (default 0). dgraph-js logs in again with the refresh token when the access token expires.
   */
  private async ready(): Promise<dgraph.DgraphClient> {
    const { stub, client } = await this.open();
    if (this.target.username === undefined) return client;
    this.login ??= stub
      .loginIntoNamespace(
        this.target.username,
        this.target.password,
        this.target.namespace ?? 0,
        undefined,
        this.metadata(),
        this.callOptions(),
      )
      .catch((e) => {
        this.login = undefined;
        throw e;
      });
    await this.login;
    return client;
  }

  /**
   * A read-only query; `vars` maps `$name` to a string (numbers and booleans are stringified). `deadline`
   * (epoch ms, the function call's) ends it sooner than the connection's timeout; the server stops the
   * query when the gRPC deadline passes. Answers the `data` JSON text as the server sent it: the host
   * never parses an answer only to write it out again for the guest.
   */
  async query(query: string, vars: Record<string, unknown>, deadline?: number): Promise<string> {
    const req = new dgraph.Request();
    req.setQuery(query);
    const varsMap = req.getVarsMap();
    for (const [k, v] of Object.entries(stringVars(vars))) varsMap.set(k, v);
    req.setReadOnly(true);
    const { json } = await this.send(req, deadline);
    return json.byteLength === 0
      ? "{}"
      : Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString("utf8");
  }

  /** Mutations (an upsert when `query` is given), committed at once. */
  async mutate(
    request: GraphMutateRequest,
    deadline?: number,
  ): Promise<{ json: unknown; uids: Record<string, string> }> {
    const req = new dgraph.Request();
    if (request.query !== undefined) req.setQuery(request.query);
    const varsMap = req.getVarsMap();
    for (const [k, v] of Object.entries(stringVars(request.vars ?? {}))) varsMap.set(k, v);
    req.setMutationsList(
      request.mutations.map((m) => {
        const mu = new dgraph.Mutation();
        if (m.setJson !== undefined) mu.setSetJson(m.setJson);
        if (m.deleteJson !== undefined) mu.setDeleteJson(m.deleteJson);
        if (m.setNquads !== undefined) mu.setSetNquads(m.setNquads);
        if (m.delNquads !== undefined) mu.setDelNquads(m.delNquads);
        if (m.cond !== undefined) mu.setCond(m.cond);
        return mu;
      }),
    );
    req.setCommitNow(true);
    const { json, uids } = await this.send(req, deadline);
    return { json: request.query !== undefined ? parseJson(json) : null, uids };
  }

  /**
   * One request in a transaction of its own (start ts 0: a read-only query, or mutations committed at
   * once), sent on the stub's channel as dgraph-js sends it (with its access token), logging in again once
   * when the token expired, and answering an aborted or conflicting commit with dgraph-js's `ERR_ABORTED`.
   * Not through dgraph-js's `Txn`: it turns every request and answer into JSON text for a debug log that
   * is off (megabytes of base64 on the platform's thread for one large answer); and the answer is read
   * straight from the wire (`decodeGraphAnswer`), not by google-protobuf.
   */
  private async send(req: dgraph.Request, deadline?: number): Promise<GraphAnswer> {
    await this.ready();
    const stub = this.stub!;
    try {
      return await this.unary(stub, req, deadline);
    } catch (e) {
      if (dgraph.isJwtExpired(e)) {
        await stub.retryLogin(this.metadata(), this.callOptions(deadline));
        return await this.unary(stub, req, deadline);
      }
      const code = (e as { code?: unknown }).code;
      if (code === dgraph.grpc.status.ABORTED || code === dgraph.grpc.status.FAILED_PRECONDITION) {
        throw dgraph.ERR_ABORTED;
      }
      throw e;
    }
  }

  /** `api.Dgraph/Query` on the stub's own gRPC client, the answer decoded by `decodeGraphAnswer`. */
  private unary(stub: dgraph.DgraphClientStub, req: dgraph.Request, deadline?: number): Promise<GraphAnswer> {
    // dgraph-js keeps these out of its type declarations: its generated gRPC client, and the method that
    // adds the access token of its login to a call's metadata.
    const inner = stub as unknown as { stub: Client; ensureMetadata(md: Metadata): Metadata };
    return new Promise((resolve, reject) => {
      inner.stub.makeUnaryRequest(
        "/api.Dgraph/Query",
        (r: dgraph.Request) => Buffer.from(r.serializeBinary()),
        (bytes: Buffer) => decodeGraphAnswer(bytes),
        req,
        inner.ensureMetadata(this.metadata()),
        this.callOptions(deadline),
        (error, answer) => (error || answer === undefined ? reject(error) : resolve(answer)),
      );
    });
  }

  /** Applies DQL schema text. */
  async alter(schema: string, deadline?: number): Promise<void> {
    const client = await this.ready();
    const op = new dgraph.Operation();
    op.setSchema(schema);
    await client.alter(op, this.metadata(), this.callOptions(deadline));
  }

  close(): void {
    this.closed = true;
    this.stub?.close();
  }
}

/** An answer's JSON bytes, parsed (null when there are none). */
function parseJson(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) return null;
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
}

function stringVars(vars: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) {
    if (typeof v === "string") out[k] = v;
    else if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") out[k] = String(v);
    else throw new Error(`variable ${k} must be a string, number or boolean`);
  }
  return out;
}
