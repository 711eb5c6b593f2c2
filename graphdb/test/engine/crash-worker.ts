/**
 * Child process for the crash test: commits money transfers between 10 accounts forever, each with a marker
 * node, and prints "ACK <marker>" after each commit is acknowledged (durable). Killed with SIGKILL.
 */
import { createGraphDB, TxnAbortedError } from "../../src/index.ts";

const dir = process.argv[2];
const db = createGraphDB({ dir });
const e = db.engine;

async function main(): Promise<void> {
  await e.alter({ schema: "bal: int .\nacct: int @index(int) .\nmarker: string @index(exact) ." });
  const existing = JSON.parse((await e.query({ query: "{ q(func: has(acct)) { uid } }" })).json)
    .q as unknown[];
  if (existing.length === 0) {
    const nq = Array.from({ length: 10 }, (_, i) => `_:a${i} <acct> "${i}" .\n_:a${i} <bal> "100" .`).join(
      "\n",
    );
    await e.mutate({ mutations: [{ setNquads: nq }], commitNow: true });
  }
  const accounts = (
    JSON.parse((await e.query({ query: "{ q(func: has(acct)) { uid } }" })).json).q as { uid: string }[]
  ).map((a) => a.uid);
  process.stdout.write("READY\n");
  let seq = 0;
  const prefix = `${process.pid}-`;
  for (;;) {
    const i = Math.floor(Math.random() * accounts.length);
    let j = Math.floor(Math.random() * accounts.length);
    if (j === i) j = (j + 1) % accounts.length;
    const [a, b] = [accounts[i], accounts[j]];
    const r = await e.query({ query: `{ q(func: uid(${a}, ${b})) { uid bal } }` });
    const rows = JSON.parse(r.json).q as { uid: string; bal: number }[];
    const bal = new Map(rows.map((x) => [x.uid, x.bal]));
    const amount = 1 + Math.floor(Math.random() * 5);
    const marker = `${prefix}${++seq}`;
    const nq = `<${a}> <bal> "${(bal.get(a) ?? 0) - amount}" .\n<${b}> <bal> "${(bal.get(b) ?? 0) + amount}" .\n_:m <marker> "${marker}" .`;
    try {
      await e.mutate({ startTs: r.txn.start_ts, mutations: [{ setNquads: nq }], commitNow: true });
      process.stdout.write(`ACK ${marker}\n`);
    } catch (err) {
      if (!(err instanceof TxnAbortedError)) throw err;
    }
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
