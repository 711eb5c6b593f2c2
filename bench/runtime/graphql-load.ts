/**
 * Closed-loop HTTP load for the runtime and platform benchmarks: `concurrency` keep-alive clients each
 * POST a GraphQL body back to back for a fixed time; every response must contain `expect`.
 */
import { Agent, request } from "node:http";
import { percentile } from "../graphdb/latency.ts";

export interface LoadTarget {
  port: number;
  path: string;
  headers?: Record<string, string>;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
}

export function postGraphQL(agent: Agent, target: LoadTarget, body: string, expect: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: target.port,
        path: target.path,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", ...target.headers },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => (text.includes(expect) ? resolve() : reject(new Error(text))));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export async function runLoad(
  target: LoadTarget,
  options: { seconds: number; concurrency: number; body: string; expect: string },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  const end = performance.now() + options.seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await postGraphQL(agent, target, options.body, options.expect);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: (latencies.length * 1000) / wall,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** The round with the highest throughput. */
export function bestRound(results: LoadResult[]): LoadResult {
  return results.reduce((a, b) => (b.rps > a.rps ? b : a));
}
