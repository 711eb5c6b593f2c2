/**
 * The Dgraph clients' `bank` acceptance workload, shared by the HTTP (dgraph-js-http) and gRPC (dgraph-js)
 * runs: 100 accounts of 100, five concurrent transfer loops (read both balances, write both, commit; aborts
 * retried) while a checker keeps reading the total in read-only transactions. Snapshot isolation and
 * write-write conflict detection are right iff every read total is 10000 and no balance goes negative.
 *
 * Each test file adapts its client to {@link BankClient}; everything else is here.
 */
import { expect } from "vitest";
import { seededRandom } from "./seeded-random.ts";

export const ACCOUNTS = 100;
export const INITIAL = 100;
export const TOTAL = ACCOUNTS * INITIAL;
const WORKERS = 5;

/** TRELLIS_BANK_SECONDS, or the test file's default. */
export function bankSeconds(fallback: number): number {
  return Number(process.env.TRELLIS_BANK_SECONDS ?? String(fallback));
}

/** Refuses a TRELLIS_BANK_SECONDS that is not a positive number. */
export function checkBankSeconds(seconds: number): void {
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new Error(
      `TRELLIS_BANK_SECONDS must be a positive number, got ${process.env.TRELLIS_BANK_SECONDS}`,
    );
  }
}

/** The `setJson` that creates the accounts. */
export function initialAccounts(): { bal: number }[] {
  return Array.from({ length: ACCOUNTS }, () => ({ bal: INITIAL }));
}

/** One read-write transaction of the client under test, with JSON in and out. */
export interface BankTxn {
  query(q: string): Promise<unknown>;
  mutate(setJson: object[]): Promise<void>;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** What the workload needs of a client. */
export interface BankClient {
  newTxn(): BankTxn;
  /** A query in a new read-only transaction; the response's JSON data. */
  readOnlyQuery(q: string): Promise<unknown>;
  /** Whether an error thrown by a transaction is the client's "transaction aborted". */
  isAborted(e: unknown): boolean;
}

interface Account {
  uid: string;
  bal: number;
}

/**
 * Runs the transfer loops and the checker for `seconds` over the accounts `uids`, logs a summary line
 * headed `name`, then checks the invariants (every total read was TOTAL, no balance negative, some
 * transfers committed and some aborted).
 */
export async function runBank(
  name: string,
  client: BankClient,
  uids: string[],
  seconds: number,
): Promise<void> {
  expect(uids).toHaveLength(ACCOUNTS);
  expect(new Set(uids).size).toBe(ACCOUNTS);

  const totalQuery = `{ var(func: uid(${uids.join(", ")})) { b as bal } total() { bal: sum(val(b)) } }`;
  const readTotal = async (): Promise<unknown> => {
    const data = await client.readOnlyQuery(totalQuery);
    return (data as { total?: { bal?: unknown }[] }).total?.[0]?.bal;
  };
  expect(await readTotal()).toBe(TOTAL);

  const deadline = Date.now() + seconds * 1000;
  let committed = 0;
  let aborted = 0;
  let skipped = 0;
  let checks = 0;
  const badTotals: unknown[] = [];

  const transferLoop = async (worker: number) => {
    const random = seededRandom(0xba4c + worker);
    // After an abort the same transfer is retried in a new transaction.
    let retry: [string, string] | undefined;
    while (Date.now() < deadline) {
      let a: string;
      let b: string;
      if (retry) {
        [a, b] = retry;
        retry = undefined;
      } else {
        a = uids[Math.floor(random() * ACCOUNTS)];
        b = uids[Math.floor(random() * ACCOUNTS)];
        while (b === a) b = uids[Math.floor(random() * ACCOUNTS)];
      }
      const txn = client.newTxn();
      try {
        const data = await txn.query(`{both(func: uid(${a}, ${b})) { uid, bal }}`);
        const both = (data as { both: Account[] }).both;
        expect(both).toHaveLength(2);
        const [from, to] = random() < 0.5 ? both : [both[1], both[0]];
        if (from.bal <= 0) {
          skipped++;
          continue;
        }
        const amount = 1 + Math.floor(random() * Math.min(from.bal, 20));
        await txn.mutate([
          { uid: from.uid, bal: from.bal - amount },
          { uid: to.uid, bal: to.bal + amount },
        ]);
        await txn.commit();
        committed++;
      } catch (e) {
        if (!client.isAborted(e)) throw e;
        aborted++;
        retry = [a, b];
      } finally {
        await txn.discard();
      }
    }
  };

  const checkLoop = async () => {
    while (Date.now() < deadline) {
      const total = await readTotal();
      checks++;
      if (total !== TOTAL) badTotals.push(total);
    }
  };

  await Promise.all([...Array.from({ length: WORKERS }, (_, w) => transferLoop(w)), checkLoop()]);

  const final = await client.readOnlyQuery(`{ all(func: uid(${uids.join(", ")})) { bal } }`);
  const balances = (final as { all: { bal: number }[] }).all.map((x) => x.bal);
  console.log(
    `${name}: ${seconds}s, ${committed} transfers committed, ${aborted} aborted (retried), ` +
      `${skipped} skipped (empty account), ${checks} total checks`,
  );

  expect(badTotals).toEqual([]);
  expect(await readTotal()).toBe(TOTAL);
  expect(balances).toHaveLength(ACCOUNTS);
  expect(balances.reduce((s, x) => s + x, 0)).toBe(TOTAL);
  expect(Math.min(...balances)).toBeGreaterThanOrEqual(0);
  expect(checks).toBeGreaterThan(0);
  expect(committed).toBeGreaterThan(0);
  expect(aborted).toBeGreaterThan(0);
}
