/**
 * The bank acceptance over gRPC with the unchanged `dgraph-js` client (ACL on), as the HTTP one in
 * test/server/bank.test.ts; the workload and its invariants are in ../bank-workload.ts.
 *
 * Duration: TRELLIS_BANK_SECONDS (default 10).
 */
import * as dgraph from "dgraph-js";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  type BankClient,
  bankSeconds,
  checkBankSeconds,
  initialAccounts,
  runBank,
  TOTAL,
} from "../bank-workload.ts";
import { type Harness, mutation, operation, startHarness } from "./harness.ts";

const SECONDS = bankSeconds(10);

describe("bank over gRPC: concurrent transfers keep the total (dgraph-js, ACL on)", () => {
  let h: Harness;

  beforeAll(async () => {
    checkBankSeconds(SECONDS);
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it(
    `keeps the total at ${TOTAL} through ${SECONDS}s of transfers`,
    async () => {
      const stub = h.stub();
      const client = new dgraph.DgraphClient(stub);
      await stub.login("groot", "password");
      await client.alter(operation({ dropAll: true }));
      await client.alter(operation({ schema: "bal: int ." }));

      const created = await client.newTxn().mutate(mutation({ setJson: initialAccounts(), commitNow: true }));
      const bank: BankClient = {
        newTxn() {
          const txn = client.newTxn();
          return {
            query: async (q) => (await txn.query(q)).getJson(),
            mutate: async (setJson) => {
              await txn.mutate(mutation({ setJson }));
            },
            commit: async () => {
              await txn.commit();
            },
            discard: () => txn.discard(),
          };
        },
        readOnlyQuery: async (q) => (await client.newTxn({ readOnly: true }).query(q)).getJson(),
        isAborted: (e) => e === dgraph.ERR_ABORTED,
      };
      const uids = [...created.getUidsMap().entries()].map(([, uid]) => uid as string);
      await runBank("bank over gRPC", bank, uids, SECONDS);
    },
    Math.max(90_000, SECONDS * 1000 + 60_000),
  );
});
