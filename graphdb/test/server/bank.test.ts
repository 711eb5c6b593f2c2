/**
 * The dgraph-js-http `bank.spec` acceptance over the real server (ACL on) with the unchanged npm client;
 * the workload and its invariants are in ../bank-workload.ts.
 *
 * Duration: TRELLIS_BANK_SECONDS (default 20).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as dgraph from "dgraph-js-http";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createGraphDB, type GraphDBHandle } from "../../src/index.ts";
import { createHttpServer, type HttpServer } from "../../src/server/http-server.ts";
import {
  type BankClient,
  bankSeconds,
  checkBankSeconds,
  initialAccounts,
  runBank,
  TOTAL,
} from "../bank-workload.ts";

const SECRET = new TextEncoder().encode("a-test-secret-of-at-least-32-bytes!!");
const SECONDS = bankSeconds(20);

describe("bank: concurrent transfers keep the total (dgraph-js-http, ACL on)", () => {
  let dir: string;
  let db: GraphDBHandle;
  let server: HttpServer;
  let address: string;

  beforeAll(async () => {
    checkBankSeconds(SECONDS);
    dir = mkdtempSync(join(tmpdir(), "trellis-bank-"));
    db = createGraphDB({ dir, acl: true });
    server = createHttpServer(db.engine, { acl: true, aclSecret: SECRET });
    const { port } = await server.listen(0, "127.0.0.1");
    address = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await server?.close();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    `keeps the total at ${TOTAL} through ${SECONDS}s of transfers`,
    async () => {
      const client = new dgraph.DgraphClient(new dgraph.DgraphClientStub(address));
      await client.login("groot", "password");
      await client.alter({ dropAll: true });
      await client.alter({ schema: "bal: int ." });

      const created = await client.newTxn().mutate({ setJson: initialAccounts(), commitNow: true });
      const bank: BankClient = {
        newTxn() {
          const txn = client.newTxn();
          return {
            query: async (q) => (await txn.query(q)).data,
            mutate: async (setJson) => {
              await txn.mutate({ setJson });
            },
            commit: async () => {
              await txn.commit();
            },
            discard: () => txn.discard(),
          };
        },
        readOnlyQuery: async (q) => (await client.newTxn({ readOnly: true }).query(q)).data,
        isAborted: (e) => e === dgraph.ERR_ABORTED,
      };
      await runBank("bank", bank, Object.values(created.data.uids), SECONDS);
    },
    Math.max(90_000, SECONDS * 1000 + 60_000),
  );
});
