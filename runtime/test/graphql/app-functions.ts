import type { AppWorld, WitFunction } from "../../src/wit/wit-types.ts";
import { fixtureWorld } from "./fixture-world.ts";
import { type GuestFunction, JsFunctionInvoker, Trap } from "./js-function-invoker.ts";

/** The fixture world plus functions that fail in each way, with JS implementations for all of them. */
const str = { kind: "prim", name: "string" } as const;
const failing: WitFunction[] = [
  { name: "fail-softly", params: [], result: { kind: "result", ok: str, err: str } },
  { name: "trap-now", params: [], result: str },
  { name: "sleep-long", params: [], result: str },
  { name: "log-stuff", params: [{ name: "name", type: str }], result: { kind: "result", ok: str, err: str } },
  { name: "not-implemented", params: [], result: str },
  { name: "bad-result", params: [], result: { kind: "ref", name: "color" } },
];

export const testWorld: AppWorld = {
  types: fixtureWorld.types,
  functions: [...fixtureWorld.functions, ...failing],
};

const ada = {
  id: 9007199254740993n,
  firstName: "Ada",
  age: 36,
  nickname: undefined,
  tags: ["math"],
  favoriteColor: "dark-green",
  address: { street: "1 Analytical Way", city: "London" },
};

export const guestFunctions: Record<string, GuestFunction> = {
  "get-person": ([id]) => (id === ada.id ? ada : undefined),
  "list-people": () => [ada],
  "add-person": ([p]) => p,
  "additional-posts": ([count]) => Array.from({ length: count as number }, (_, i) => `post ${i + 1}`),
  add: () => undefined,
  getter: () => "got",
  "echo-measurements": ([m]) => m,
  "pair-up": ([a, b]) => [a, b],
  "split-pair": ([p]) => {
    const [a, b] = p as [string, number | undefined];
    return [a, b === undefined ? undefined : String(b)];
  },
  ping: () => undefined,
  "delete-everything": ([confirm, colors]) =>
    confirm ? BigInt((colors as string[] | undefined)?.length ?? 0) + 2n ** 63n : 0n,
  mark: () => ({}),
  "fail-softly": () => {
    throw new Error("the database said no");
  },
  "trap-now": () => {
    throw new Trap(
      "RuntimeError: unreachable\n    at wasm-function[12]:0x3f1\n    at guestMain (file:///x.js:1:1)",
    );
  },
  "sleep-long": () => new Promise((resolve) => setTimeout(() => resolve("late"), 1_000)),
  "log-stuff": ([name], ctx) => {
    ctx.log("info", `hello ${name}`);
    ctx.log("warning", "careful");
    ctx.log("error", "something odd happened");
    return `done ${name}`;
  },
  "bad-result": () => "purple",
};

export function newTestInvoker(): JsFunctionInvoker {
  return new JsFunctionInvoker(guestFunctions, 200);
}
