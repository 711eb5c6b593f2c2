/**
 * Failures on the gRPC wire: statuses mapped as Dgraph maps them, malformed protobuf and gRPC frames
 * (sent raw, with a passthrough serializer or over bare HTTP/2), oversized messages against the explicit
 * limit — and the server keeps serving after each.
 */
import http2 from "node:http2";
import * as dgraph from "dgraph-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcError, type Harness, mutation, operation, responseJson, startHarness } from "./harness.ts";

const { status } = dgraph.grpc;
const passthrough = (b: Buffer) => b;

describe("gRPC errors and limits", () => {
  let h: Harness;
  let stub: dgraph.DgraphClientStub;
  let client: dgraph.DgraphClient;
  let raw: InstanceType<typeof dgraph.grpc.Client>;

  /** A unary call with raw bytes in and out. */
  function rawCall(method: string, body: Buffer, address = h.grpcAddress) {
    const c =
      address === h.grpcAddress
        ? raw
        : new dgraph.grpc.Client(address, dgraph.grpc.credentials.createInsecure());
    return new Promise<Buffer>((resolve, reject) => {
      c.makeUnaryRequest(method, passthrough, passthrough, body, new dgraph.grpc.Metadata(), (err, res) => {
        if (c !== raw) c.close();
        if (err) reject(err);
        else resolve(res as Buffer);
      });
    });
  }

  /** One gRPC request over bare HTTP/2: the frame bytes exactly as given; resolves with the status. */
  function http2Call(
    body: Buffer,
    headers: Record<string, string> = {},
    path = "/api.Dgraph/Query",
    address = h.grpcAddress,
  ) {
    return new Promise<{ httpStatus?: number; code?: number; message?: string }>((resolve, reject) => {
      const session = http2.connect(`http://${address}`);
      session.on("error", reject);
      const req = session.request({
        ":method": "POST",
        ":path": path,
        "content-type": "application/grpc",
        te: "trailers",
        ...headers,
      });
      const out: { httpStatus?: number; code?: number; message?: string } = {};
      const take = (hdrs: http2.IncomingHttpHeaders) => {
        if (hdrs["grpc-status"] !== undefined) out.code = Number(hdrs["grpc-status"]);
        if (hdrs["grpc-message"] !== undefined)
          out.message = decodeURIComponent(String(hdrs["grpc-message"]));
      };
      req.on("response", (hdrs) => {
        out.httpStatus = Number(hdrs[":status"]);
        take(hdrs);
      });
      req.on("trailers", take);
      req.on("data", () => {});
      req.on("end", () => {
        session.close();
        resolve(out);
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  const frame = (payload: Buffer, length = payload.length, flag = 0) =>
    Buffer.concat([
      Buffer.from([flag, length >>> 24, (length >>> 16) & 255, (length >>> 8) & 255, length & 255]),
      payload,
    ]);

  /** The server still answers, over the long-lived client connection and a fresh one. */
  async function stillServing() {
    expect((await stub.checkVersion(new dgraph.Check())).getTag()).toBe("v25.0.0");
    const res = await client.newTxn({ readOnly: true }).query("{ q(func: uid(1)) { uid } }");
    expect(res.getJson()).toEqual({ q: [{ uid: "0x1" }] });
    const fresh = await rawCall("/api.Dgraph/CheckVersion", Buffer.alloc(0));
    expect(fresh.toString("latin1")).toContain("v25.0.0");
  }

  beforeAll(async () => {
    h = await startHarness();
    stub = h.stub();
    client = new dgraph.DgraphClient(stub);
    await stub.login("groot", "password");
    await client.alter(operation({ dropAll: true }));
    await client.alter(operation({ schema: "name: string @index(exact) ." }));
    raw = new dgraph.grpc.Client(h.grpcAddress, dgraph.grpc.credentials.createInsecure());
  });

  afterAll(async () => {
    raw?.close();
    await h?.close();
  });

  describe("status codes as Dgraph's", () => {
    it("commit conflict → ABORTED `Transaction has been aborted. Please retry`", async () => {
      const first = await client.newTxn().mutate(mutation({ setJson: { name: "c1" }, commitNow: true }));
      const uid = first.getUidsMap().values().next().value as string;
      const a = await stub.query(requestWith([mutation({ setJson: { uid, name: "a" } })]));
      const b = await stub.query(requestWith([mutation({ setJson: { uid, name: "b" } })]));
      await stub.commitOrAbort(b.getTxn() as dgraph.TxnContext);
      const err = await grpcError(stub.commitOrAbort(a.getTxn() as dgraph.TxnContext));
      expect(err).toEqual({ code: status.ABORTED, details: "Transaction has been aborted. Please retry" });

      // A mutation in the aborted txn → FAILED_PRECONDITION `Transaction conflict`.
      const again = requestWith([mutation({ setJson: { uid, name: "again" } })]);
      again.setStartTs(a.getTxn()?.getStartTs() as number);
      expect(await grpcError(stub.query(again))).toEqual({
        code: status.FAILED_PRECONDITION,
        details: "Transaction conflict",
      });
      // commitNow conflicts are ABORTED too.
      const late = requestWith([mutation({ setJson: { uid, name: "late" } })]);
      const c = await stub.query(requestWith([mutation({ setJson: { uid, name: "c" } })]));
      late.setStartTs(c.getTxn()?.getStartTs() as number);
      await stub.query(commitNowWith([mutation({ setJson: { uid, name: "d" } })]));
      late.setCommitNow(true);
      expect((await grpcError(stub.query(late))).code).toBe(status.ABORTED);
    });

    it("committing with start ts 0, aborting a committed txn", async () => {
      expect(await grpcError(stub.commitOrAbort(new dgraph.TxnContext()))).toEqual({
        code: status.UNKNOWN,
        details: "StartTs cannot be zero while committing a transaction",
      });
      const done = await stub.query(commitNowWith([mutation({ setJson: { name: "done" } })]));
      const ctx = new dgraph.TxnContext();
      ctx.setStartTs(done.getTxn()?.getStartTs() as number);
      ctx.setAborted(true);
      expect(await grpcError(stub.commitOrAbort(ctx))).toEqual({
        code: status.UNKNOWN,
        details: "transaction could not be aborted",
      });
    });

    it("ACL: no token → PERMISSION_DENIED, bad token → UNAUTHENTICATED, login failure → UNKNOWN", async () => {
      const anonymous = h.stub();
      expect(await grpcError(anonymous.query(queryRequest("{ q(func: uid(1)) { uid } }")))).toEqual({
        code: status.PERMISSION_DENIED,
        details: "no accessJwt available",
      });
      const md = new dgraph.grpc.Metadata();
      md.set("accessJwt", "not-a-jwt");
      expect(await grpcError(anonymous.query(queryRequest("{ q(func: uid(1)) { uid } }"), md))).toEqual({
        code: status.UNAUTHENTICATED,
        details: "unable to parse jwt token: token contains an invalid number of segments",
      });
      expect(await grpcError(anonymous.login("groot", "nope"))).toEqual({
        code: status.UNKNOWN,
        details: "invalid username or password",
      });
    });

    it("DQL errors, empty requests and best effort without read-only → UNKNOWN with the engine's text", async () => {
      const syntax = await grpcError(stub.query(queryRequest("{ q(func: uid(1)) { uid }")));
      expect(syntax.code).toBe(status.UNKNOWN);
      expect(syntax.details).toMatch(/./);
      expect(await grpcError(stub.query(new dgraph.Request()))).toEqual({
        code: status.UNKNOWN,
        details: "empty request",
      });
      const be = queryRequest("{ q(func: uid(1)) { uid } }");
      be.setBestEffort(true);
      expect(await grpcError(stub.query(be))).toEqual({
        code: status.UNKNOWN,
        details: "A best effort query must be read-only.",
      });
    });

    it("a passed deadline → DEADLINE_EXCEEDED", async () => {
      const err = await grpcError(
        stub.query(queryRequest("{ q(func: uid(1)) { uid } }"), undefined, { deadline: Date.now() - 1 }),
      );
      expect(err.code).toBe(status.DEADLINE_EXCEEDED);
    });

    it("poor man's auth: Alter needs the `auth-token` metadata", async () => {
      const guarded = await h.extraGrpc({ authToken: "s3cret" });
      const s = h.stub(guarded);
      await s.login("groot", "password");
      expect(await grpcError(s.alter(operation({ schema: "x: int ." })))).toEqual({
        code: status.PERMISSION_DENIED,
        details: "No Auth Token found. Token needed for Admin operations.",
      });
      const md = new dgraph.grpc.Metadata();
      md.set("auth-token", "s3cret");
      await s.alter(operation({ schema: "x: int ." }), md);
      // Queries do not need it.
      expect(responseJson(await s.query(queryRequest("{ q(func: uid(1)) { uid } }")))).toEqual({
        q: [{ uid: "0x1" }],
      });
    });

    it("unknown methods (e.g. v25's RunDQL) → UNIMPLEMENTED", async () => {
      const err = await grpcError(rawCall("/api.Dgraph/RunDQL", Buffer.alloc(0)));
      expect(err.code).toBe(status.UNIMPLEMENTED);
      await stillServing();
    });
  });

  describe("malformed messages", () => {
    it("protobuf that does not decode → INTERNAL `grpc: error unmarshalling request: …`", async () => {
      const cases = [
        Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), // length-delimited field far beyond the end
        Buffer.from([0x22, 0x05, 0x61]), // query (field 4) claims 5 bytes, has 1
        Buffer.from([0x0f]), // wire type 7 does not exist
        Buffer.from([0x08, 0xff, 0xff, 0xff]), // truncated varint
      ];
      for (const bytes of cases) {
        const err = await grpcError(rawCall("/api.Dgraph/Query", bytes));
        expect(err.code).toBe(status.INTERNAL);
        expect(err.details).toMatch(/^grpc: error unmarshalling request: /);
      }
      // grpc-go's strictness, which protobufjs alone lacks: the first problem is named.
      const named: [number[], string][] = [
        [[0x0a, 0x01, 0x00], "api.Request.start_ts: wire type 2, expected 0"],
        [[0x22, 0x02, 0xc3, 0x28], "api.Request.query: invalid UTF-8"],
        [[0x22, 0x05, 0x61], "api.Request.query: length 5 runs past the end of the message"],
        [[0x62, 0x02, 0x2a, 0x05], "api.Mutation.set: length 5 runs past the end of the message"],
        [[0x62, 0x03, 0x2a, 0x01, 0x01], "api.NQuad: invalid field number 0"],
        [[0x2a, 0x04, 0x0a, 0x01, 0x78, 0x10], "api.Request.Vars.value: wire type 0, expected 2"],
      ];
      for (const [bytes, reason] of named) {
        const err = await grpcError(rawCall("/api.Dgraph/Query", Buffer.from(bytes)));
        expect(err).toEqual({
          code: status.INTERNAL,
          details: `grpc: error unmarshalling request: ${reason}`,
        });
      }
      // Unknown fields are skipped, as proto3 requires: this is an empty Request.
      expect(await grpcError(rawCall("/api.Dgraph/Query", Buffer.from([0x98, 0x06, 0x01])))).toEqual({
        code: status.UNKNOWN,
        details: "empty request",
      });
      for (const method of ["Login", "Alter", "CommitOrAbort"]) {
        const err = await grpcError(rawCall(`/api.Dgraph/${method}`, Buffer.from([0x0a, 0x7f])));
        expect(err.code).toBe(status.INTERNAL);
      }
      await stillServing();
    });

    it("bad gRPC framing over HTTP/2 gets a gRPC status, not a dropped connection", async () => {
      // A frame announcing 100 bytes that ends after 10.
      expect((await http2Call(frame(Buffer.alloc(10), 100))).code).toBe(status.UNIMPLEMENTED);
      // No message at all, and two messages for a unary method.
      expect((await http2Call(Buffer.alloc(0))).code).toBe(status.UNIMPLEMENTED);
      expect((await http2Call(Buffer.concat([frame(Buffer.alloc(0)), frame(Buffer.alloc(0))]))).code).toBe(
        status.UNIMPLEMENTED,
      );
      // Garbage inside a well-formed frame.
      const garbage = await http2Call(frame(Buffer.from([0x0a, 0xff, 0xff])));
      expect(garbage.code).toBe(status.INTERNAL);
      expect(garbage.message).toMatch(/^grpc: error unmarshalling request/);
      // Not gRPC at all.
      expect((await http2Call(frame(Buffer.alloc(0)), { "content-type": "text/plain" })).httpStatus).toBe(
        415,
      );
      await stillServing();
    });
  });

  describe("message size limit", () => {
    it("refuses a message over the limit with RESOURCE_EXHAUSTED and keeps serving", async () => {
      const small = await h.extraGrpc({ maxMessageBytes: 64 * 1024 });
      const s = h.stub(small);
      await s.login("groot", "password");
      const c = new dgraph.DgraphClient(s);
      const big = Array.from(
        { length: 2_000 },
        (_, i) => `_:n${i} <name> "name number ${i} padded out" .`,
      ).join("\n");
      expect(Buffer.byteLength(big)).toBeGreaterThan(64 * 1024);
      const err = await grpcError(s.query(commitNowWith([mutation({ setNquads: big })])));
      expect(err.code).toBe(status.RESOURCE_EXHAUSTED);
      expect(err.details).toMatch(/^Received message larger than max \(\d+ vs 65536\)$/);
      // A bare HTTP/2 frame that only announces a huge length is refused the same way.
      const announced = await http2Call(frame(Buffer.alloc(10), 1 << 30), {}, "/api.Dgraph/Query", small);
      expect(announced.code).toBe(status.RESOURCE_EXHAUSTED);

      // The same connection still works, within the limit.
      const ok = await c.newTxn().mutate(mutation({ setNquads: '_:x <name> "fits" .', commitNow: true }));
      expect(ok.getUidsMap().get("x")).toMatch(/^0x/);
      await stillServing();
    });

    it("the default limit is 32 MiB: 5 MiB passes (beyond gRPC's usual 4 MiB), 33 MiB does not", async () => {
      const padded = (bytes: number) => `# ${"x".repeat(bytes)}\n{ q(func: uid(1)) { uid } }`;
      const ok = await stub.query(queryRequest(padded(5 * 1024 * 1024)));
      expect(responseJson(ok)).toEqual({ q: [{ uid: "0x1" }] });
      const err = await grpcError(stub.query(queryRequest(padded(33 * 1024 * 1024))));
      expect(err.code).toBe(status.RESOURCE_EXHAUSTED);
      expect(err.details).toContain(`vs ${32 * 1024 * 1024})`);
      await stillServing();
    });
  });
});

function queryRequest(q: string): dgraph.Request {
  const req = new dgraph.Request();
  req.setQuery(q);
  return req;
}

function requestWith(mutations: dgraph.Mutation[]): dgraph.Request {
  const req = new dgraph.Request();
  req.setMutationsList(mutations);
  return req;
}

function commitNowWith(mutations: dgraph.Mutation[]): dgraph.Request {
  const req = requestWith(mutations);
  req.setCommitNow(true);
  return req;
}
