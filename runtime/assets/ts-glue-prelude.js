// The part of every TypeScript app's generated glue that does not depend on the app (src/compiler/ts-glue.ts
// puts the imports and the app's TYPES before it and one `wrap(...)` export per function after it).
const SAFE = Number.MAX_SAFE_INTEGER;
const INT_RANGES = {
  s8: [-128, 127],
  s16: [-32768, 32767],
  s32: [-2147483648, 2147483647],
  s64: [-SAFE, SAFE],
  u8: [0, 255],
  u16: [0, 65535],
  u32: [0, 4294967295],
  u64: [0, SAFE],
};

function toUser(s, v) {
  switch (s.k) {
    case "option":
      return v === null || v === undefined ? (s.none === "null" ? null : undefined) : toUser(s.of, v);
    case "bigint":
      return BigInt(v);
    case "list":
      return Array.from(v, (x) => toUser(s.of, x));
    case "tuple":
      return s.of.map((t, i) => toUser(t, v[i]));
    case "record": {
      const out = {};
      for (const f of TYPES[s.name].fields) {
        const x = toUser(f.shape, v[f.js]);
        if (x !== undefined) out[f.key] = x;
      }
      return out;
    }
    case "enum":
      return TYPES[s.name].toUser[v];
    default:
      return v;
  }
}

function show(v) {
  if (v === undefined) return "undefined";
  if (typeof v === "bigint") return v + "n";
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function bad(path, expected, v) {
  throw new TypeError("invalid " + path + ": expected " + expected + ", got " + show(v));
}

function toWit(s, v, path) {
  switch (s.k) {
    case "string":
      return typeof v === "string" ? v : bad(path, "a string", v);
    case "bool":
      return typeof v === "boolean" ? v : bad(path, "a boolean", v);
    case "num": {
      if (typeof v !== "number") return bad(path, "a number (" + s.wit + ")", v);
      const range = INT_RANGES[s.wit];
      if (range && (!Number.isInteger(v) || v < range[0] || v > range[1])) {
        return bad(path, "an integer in " + s.wit + " range", v);
      }
      return v;
    }
    case "bigint": {
      const n = typeof v === "bigint" ? Number(v) : v;
      if (typeof n !== "number" || !Number.isSafeInteger(n)) return bad(path, "a bigint within ±2^53", v);
      return n;
    }
    case "option":
      return v === null || v === undefined ? null : toWit(s.of, v, path);
    case "list":
      if (!Array.isArray(v) && !ArrayBuffer.isView(v)) return bad(path, "an array", v);
      return Array.from(v, (x, i) => toWit(s.of, x, path + "[" + i + "]"));
    case "tuple":
      if (!Array.isArray(v) || v.length !== s.of.length) return bad(path, "a " + s.of.length + "-tuple", v);
      return s.of.map((t, i) => toWit(t, v[i], path + "[" + i + "]"));
    case "record": {
      if (v === null || typeof v !== "object") return bad(path, "an object (" + s.name + ")", v);
      const out = {};
      for (const f of TYPES[s.name].fields) out[f.js] = toWit(f.shape, v[f.key], path + "." + f.key);
      return out;
    }
    case "enum": {
      const c = typeof v === "string" ? TYPES[s.name].toWit[v] : undefined;
      return c !== undefined ? c : bad(path, "one of " + Object.keys(TYPES[s.name].toWit).join(", "), v);
    }
  }
  throw new TypeError("unknown shape " + s.k);
}

// biome-ignore lint/correctness/noUnusedVariables: called by the exports generated after this file
function wrap(name, fn, params, result) {
  return (...args) => {
    try {
      if (typeof fn !== "function") throw new Error(name + " is not an exported function");
      const out = fn(...params.map((p, i) => toUser(p, args[i])));
      if (out !== null && typeof out === "object" && typeof out.then === "function") {
        throw new Error(name + " returned a Promise; exported functions must be synchronous");
      }
      return result === null ? undefined : toWit(result, out, "result of " + name);
    } catch (e) {
      throw e instanceof Error ? e.message : String(e);
    }
  };
}
