import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { MessageChannel, Worker } from "node:worker_threads";
import { MemoryBoundError } from "../memory/memory-budget.ts";
import type { AppWorld } from "../wit/wit-types.ts";
import type { FromWorker, InstancePolicy, ToWorker, WorkerInit } from "./bridge-protocol.ts";
import { type LoadedComponent, loadTranspiledComponent } from "./core-modules.ts";
import type { FunctionInvoker, InvokeOptions, InvokeOutcome } from "./function-invoker.ts";
import { HostBridge } from "./host-bridge.ts";
import type { HostCallContext, HostCalls } from "./host-calls.ts";
import { fromJcoValue, toJcoArgs } from "./jco-values.ts";
import { instanceWorkerUrl } from "./worker-script.ts";

export interface PoolLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface WorkerPoolOptions {
  /** The build's `transpiled/` folder (transpile-component.ts output). */
  transpiledDir: string;
  host: HostCalls;
  /** Worker threads, i.e. calls running at once. Default 2. */
  workers?: number;
  /** Per-call timeout. Default 30 s. */
  timeoutMs?: number;
  /** Per worker: caps the guest's linear memory and the worker's JS heap. Default 256 MB. */
  memoryLimitMb?: number;
  /** Calls waiting for a worker before new ones are refused (RESOURCE_EXHAUSTED). Default 256. */
  maxQueue?: number;
  /** A call's result bigger than this, roughly serialized, is refused (RESOURCE_EXHAUSTED). Default 16 MiB. */
  maxResultBytes?: number;
  /** Characters of log lines kept per call; the rest is counted in one warning line. Default 256 KiB. */
  maxLogBytes?: number;
  /** Default `reuse`: see bench/runtime/README-jco.md for the measurements behind it. */
  instancePolicy?: InstancePolicy;
  /**
   * The app's WIT model (readAppWorld). With it, numeric lists in arguments are turned into the typed
   * arrays jco expects; without it they must already be typed arrays.
   */
  world?: AppWorld;
  logger?: PoolLogger;
}

/** What the pool holds right now (for health, metrics and tests). */
export interface WorkerPoolStats {
  /** Worker threads alive (starting, idle or busy); never more than the pool size. */
  workers: number;
  busy: number;
  queued: number;
}

export interface WorkerPoolInvoker extends FunctionInvoker {
  stats(): WorkerPoolStats;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESULT_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_LOG_BYTES = 256 * 1024;
export const DEFAULT_MEMORY_LIMIT_MB = 256;

type OutcomeError = NonNullable<InvokeOutcome["error"]>;

interface Call {
  id: number;
  exportName: string;
  args: unknown[];
  ctx: HostCallContext;
  timeoutMs: number;
  startedAt: number;
  resolve(outcome: InvokeOutcome): void;
}

interface PooledWorker {
  worker: Worker;
  bridge: HostBridge;
  ready: boolean;
  /** The call running on this worker; never more than one. */
  current?: Call;
  timer?: NodeJS.Timeout;
  /** Set when the pool ended the worker on purpose (timeout, unload): its exit answers nothing. */
  retired: boolean;
  outOfMemory: boolean;
}

const shimUrl = pathToFileURL(
  createRequire(import.meta.url).resolve("@bytecodealliance/preview2-shim/instantiation"),
).href;

/**
 * Runs a transpiled component's functions in a pool of worker threads (one instance and one call at a
 * time per worker, a bounded FIFO queue in front). A call that times out, runs out of memory or traps
 * is answered with that failure and only its worker or instance is replaced; other calls go on.
 * Core modules are compiled at creation; workers start on the first call and after `unload()`.
 */
export async function createWorkerPool(options: WorkerPoolOptions): Promise<WorkerPoolInvoker> {
  const pool = new WorkerPool(options);
  const component = await pool.load();
  // Start one worker now, so the first call finds it booted (or booting) instead of paying for all of it.
  pool.warm(component);
  return pool;
}

class WorkerPool implements WorkerPoolInvoker {
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly memoryLimitMb: number;
  private readonly maxQueue: number;
  private readonly policy: InstancePolicy;
  private component?: Promise<LoadedComponent>;
  private readonly workers = new Set<PooledWorker>();
  private readonly queue: Call[] = [];
  private nextId = 1;
  private closed = false;
  /** Set on the first call after load/unload, cleared when it is answered: cold-start reporting. */
  private coldStartAt?: number;
  /**
   * After the component failed to instantiate, no worker starts before this time (a backoff doubling from
   * 1 s to 1 min per consecutive failure), so a broken instance is not restarted in a tight loop.
   */
  private broken?: { until: number; failures: number; message: string };

  constructor(private readonly options: WorkerPoolOptions) {
    this.size = Math.max(1, options.workers ?? 2);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.memoryLimitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
    this.maxQueue = options.maxQueue ?? 256;
    this.policy = options.instancePolicy ?? "reuse";
  }

  async load(): Promise<LoadedComponent> {
    this.component ??= loadTranspiledComponent(this.options.transpiledDir, this.memoryLimitMb * 1024 * 1024);
    try {
      return await this.component;
    } catch (error) {
      this.component = undefined;
      throw error;
    }
  }

  invoke(name: string, args: unknown[], options: InvokeOptions): Promise<InvokeOutcome> {
    const startedAt = performance.now();
    if (this.closed) return Promise.resolve(failed(startedAt, "internal", "the function pool is closed"));
    if (this.queue.length >= this.maxQueue) {
      return Promise.resolve(
        failed(
          startedAt,
          "resource-exhausted",
          `too many calls waiting for this app (${this.queue.length}, the limit); try again later`,
        ),
      );
    }
    if (this.broken && Date.now() < this.broken.until) {
      return Promise.resolve(failed(startedAt, "internal", this.brokenMessage()));
    }
    if (this.workers.size === 0 && this.coldStartAt === undefined) this.coldStartAt = startedAt;
    const fn = this.options.world?.functions.find((f) => f.name === name);
    if (this.options.world && !fn) {
      return Promise.resolve(failed(startedAt, "internal", `the app has no function ${name}`));
    }
    return new Promise((resolve) => {
      this.queue.push({
        id: this.nextId++,
        exportName: toJsName(name),
        args: fn ? toJcoArgs(fn.params, this.options.world!.types, args) : args,
        ctx: {
          executionId: options.executionId,
          functionName: name,
          ...(options.jwtClaims ? { jwtClaims: options.jwtClaims } : {}),
          ...(options.memory ? { memory: options.memory } : {}),
        },
        timeoutMs: options.timeoutMs ?? this.timeoutMs,
        startedAt,
        resolve,
      });
      void this.pump();
    });
  }

  /** Hands queued calls to idle workers and starts workers (up to the pool size) for the rest. */
  private async pump(): Promise<void> {
    for (const pw of this.workers) {
      if (this.queue.length === 0) return;
      if (pw.ready && !pw.current && !pw.retired) this.dispatch(pw, this.queue.shift()!);
    }
    if (this.workersWanted() <= 0) return;
    if (this.broken && Date.now() < this.broken.until) {
      this.failQueue("internal", this.brokenMessage());
      return;
    }
    let component: LoadedComponent;
    try {
      component = await this.load();
    } catch (error) {
      this.failQueue("internal", `cannot load the component: ${messageOf(error)}`);
      return;
    }
    // Counted again after the await: every call's pump gets here, and the pool must never exceed its size.
    for (let wanted = this.workersWanted(); wanted > 0 && !this.closed; wanted--) this.spawn(component);
  }

  /** Workers to start for the queued calls: those not covered by starting workers, within the pool size. */
  private workersWanted(): number {
    const starting = [...this.workers].filter((pw) => !pw.ready && !pw.retired).length;
    return Math.min(this.queue.length - starting, this.size - this.liveCount());
  }

  stats(): WorkerPoolStats {
    const live = [...this.workers].filter((pw) => !pw.retired);
    return { workers: live.length, busy: live.filter((pw) => pw.current).length, queued: this.queue.length };
  }

  /** Starts a worker ahead of the first call when none is running. */
  warm(component: LoadedComponent): void {
    if (!this.closed && this.liveCount() === 0) this.spawn(component);
  }

  private liveCount(): number {
    return [...this.workers].filter((pw) => !pw.retired).length;
  }

  private spawn(component: LoadedComponent): void {
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const init: WorkerInit = {
      glueUrl: component.glueUrl,
      shimUrl,
      modules: component.modules,
      hostPort: port2,
      signal,
      memoryLimitBytes: this.memoryLimitMb * 1024 * 1024,
      instancePolicy: this.policy,
      maxResultBytes: this.options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
      maxLogBytes: this.options.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES,
    };
    const worker = new Worker(instanceWorkerUrl(), {
      workerData: init,
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: this.memoryLimitMb },
      // Not the parent's flags: a parent run under a loader (tsx's --import) would load it in every worker,
      // 100+ ms of cold start for a bundle that needs none.
      execArgv: [],
      // Nor its environment: the host's secrets (master key, admin token, connection strings) stay out of
      // the threads that run tenant code, whatever that code manages.
      env: {},
    });
    const pw: PooledWorker = {
      worker,
      ready: false,
      retired: false,
      outOfMemory: false,
      bridge: new HostBridge(port1, signal, this.options.host, () => pw.current?.ctx ?? noContext),
    };
    this.workers.add(pw);
    worker.on("message", (message: FromWorker) => this.onMessage(pw, message));
    worker.on("error", (error: Error & { code?: string }) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY") pw.outOfMemory = true;
      else this.options.logger?.warn(`function worker failed: ${error.message}`);
    });
    worker.on("exit", (code) => this.onExit(pw, code));
  }

  private onMessage(pw: PooledWorker, message: FromWorker): void {
    switch (message.type) {
      case "ready":
        pw.ready = true;
        this.broken = undefined;
        if (this.coldStartAt !== undefined) {
          this.options.logger?.info(
            `function workers cold start: ready ${(performance.now() - this.coldStartAt).toFixed(1)} ms after the first call`,
          );
        }
        void this.pump();
        return;
      case "init-failed": {
        this.retire(pw);
        const failures = (this.broken?.failures ?? 0) + 1;
        const backoffMs = Math.min(60_000, 1000 * 2 ** (failures - 1));
        this.broken = { until: Date.now() + backoffMs, failures, message: message.message };
        this.options.logger?.warn(
          `the component failed to instantiate (${failures} in a row): ${message.message}; no new worker for ${backoffMs / 1000} s`,
        );
        this.failQueue("internal", this.brokenMessage());
        return;
      }
      case "result": {
        const call = pw.current;
        if (!call || call.id !== message.id) return;
        // A result over what the request may still receive is charged all the same, to say which bound.
        const refused = message.ok || message.overBudget ? this.charge(call, message.bytes ?? 0) : undefined;
        this.finish(pw, {
          ok: message.ok && !refused,
          ...(refused
            ? { error: { kind: "resource-exhausted", message: refused } }
            : message.ok
              ? { value: fromJcoValue(message.value) }
              : { error: message.error }),
          logs: message.logs,
          durationMs: performance.now() - call.startedAt,
        });
        void this.pump();
      }
    }
  }

  /** Charges a result to its request's memory account; the bound's message when that refuses it. */
  private charge(call: Call, bytes: number): string | undefined {
    try {
      call.ctx.memory?.charge(bytes, `the result of ${call.ctx.functionName}`);
      return undefined;
    } catch (error) {
      if (error instanceof MemoryBoundError) return error.message;
      throw error;
    }
  }

  private dispatch(pw: PooledWorker, call: Call): void {
    // A request already over one of its memory bounds runs no further call.
    const refusal = call.ctx.memory?.refusal();
    if (refusal !== undefined) {
      call.resolve(failed(call.startedAt, "resource-exhausted", refusal));
      void this.pump();
      return;
    }
    pw.current = call;
    call.ctx.deadline = Date.now() + call.timeoutMs;
    pw.timer = setTimeout(() => {
      if (pw.current !== call) return;
      this.finish(
        pw,
        failed(
          call.startedAt,
          "timeout",
          `${call.ctx.functionName} exceeded the ${call.timeoutMs} ms timeout`,
        ),
      );
      this.replace(pw);
    }, call.timeoutMs);
    const { memory, ...ctx } = call.ctx;
    const message: ToWorker = {
      type: "invoke",
      id: call.id,
      exportName: call.exportName,
      args: call.args,
      ctx,
      ...(memory ? { budgetBytes: memory.remaining } : {}),
    };
    try {
      pw.worker.postMessage(message);
    } catch (error) {
      this.finish(
        pw,
        failed(call.startedAt, "internal", `arguments cannot be passed on: ${messageOf(error)}`),
      );
    }
  }

  private finish(pw: PooledWorker, outcome: InvokeOutcome): void {
    const call = pw.current;
    if (!call) return;
    clearTimeout(pw.timer);
    pw.current = undefined;
    pw.timer = undefined;
    if (this.coldStartAt !== undefined) {
      this.options.logger?.info(`cold start: first call answered after ${outcome.durationMs.toFixed(1)} ms`);
      this.coldStartAt = undefined;
    }
    call.resolve(outcome);
  }

  private onExit(pw: PooledWorker, code: number): void {
    this.workers.delete(pw);
    pw.bridge.close();
    if (pw.current) {
      const call = pw.current;
      this.finish(
        pw,
        pw.outOfMemory
          ? failed(
              call.startedAt,
              "out-of-memory",
              `${call.ctx.functionName} exceeded the ${this.memoryLimitMb} MB memory limit`,
            )
          : failed(call.startedAt, "trap", `the function's worker exited unexpectedly (code ${code})`),
      );
    }
    if (!pw.retired && !this.closed && this.component) {
      this.options.logger?.warn(
        `function worker exited (code ${code}${pw.outOfMemory ? ", out of memory" : ""}); replacing it`,
      );
    }
    void this.pump();
  }

  /** Ends a worker (its call is already answered) and starts a replacement so capacity stays the same. */
  private replace(pw: PooledWorker): void {
    this.retire(pw);
    if (this.closed || !this.component) return;
    void this.load().then((component) => {
      if (!this.closed && this.component && this.liveCount() < this.size) this.spawn(component);
    });
  }

  private retire(pw: PooledWorker): void {
    pw.retired = true;
    void pw.worker.terminate();
  }

  private failQueue(kind: OutcomeError["kind"], message: string): void {
    for (const call of this.queue.splice(0)) call.resolve(failed(call.startedAt, kind, message));
  }

  private brokenMessage(): string {
    const b = this.broken!;
    const seconds = Math.max(0, Math.ceil((b.until - Date.now()) / 1000));
    return `cannot instantiate the component: ${b.message} (next attempt in ${seconds} s)`;
  }

  async unload(): Promise<void> {
    this.broken = undefined;
    this.failQueue("internal", "the app was unloaded");
    const exits = [...this.workers].map((pw) => {
      if (pw.current)
        this.finish(pw, failed(pw.current.startedAt, "internal", "the app was unloaded during the call"));
      pw.retired = true;
      return pw.worker.terminate();
    });
    this.component = undefined;
    await Promise.all(exits);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.unload();
  }
}

const noContext: HostCallContext = { executionId: "", functionName: "" };

function failed(startedAt: number, kind: OutcomeError["kind"], message: string): InvokeOutcome {
  return { ok: false, error: { kind, message }, logs: [], durationMs: performance.now() - startedAt };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** jco's name for a WIT export: `get-person` → `getPerson`. */
export function toJsName(witName: string): string {
  return witName.replace(/-([a-z0-9])/gi, (_m, c: string) => c.toUpperCase());
}
