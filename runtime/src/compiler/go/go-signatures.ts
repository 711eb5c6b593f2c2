import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { TIMESTAMP_RECORD } from "../../wit/well-known-types.ts";
import type { AppWorld, WitField, WitPrimitive, WitRecord, WitType } from "../../wit/wit-types.ts";

/**
 * Turns the exported functions of a Go app (as printed by `runtime/sdk/go/cmd/trellis-sigs`) into the
 * app's WIT world plus the Go-side facts the export glue needs. Go types map to WIT as below; anything
 * else is reported with `file:line:col` so the author sees exactly which signature to change.
 *
 * - `int`/`uint` are GraphQL's 32-bit Int/UInt (s32/u32), as in Modus: they are 32-bit under TinyGo; under
 *   Go, where they are 64-bit, a result that does not fit is answered with an error, never truncated.
 * - `time.Time` is the world-level record `timestamp` (seconds, nanoseconds), the GraphQL scalar Timestamp.
 * - Struct fields are named by their `json` tag when they have one (`json:"-"` leaves a field out).
 * - Every export returns `result<T, string>` (`result<_, string>` without a value), like the TypeScript
 *   path: a trailing `error` becomes the `err` side; functions without `error` simply never fail.
 * - Several non-error results are unsupported (return a struct instead): tuples have no field names to
 *   show in GraphQL.
 */

const execFileAsync = promisify(execFile);

export type GoTypeKind =
  | "ident"
  | "pointer"
  | "slice"
  | "array"
  | "map"
  | "qualified"
  | "struct"
  | "interface"
  | "func"
  | "chan"
  | "ellipsis"
  | "unknown";

export interface GoTypeExpr {
  kind: GoTypeKind;
  name?: string;
  package?: string;
  elem?: GoTypeExpr;
  key?: GoTypeExpr;
  /** Source text, e.g. `map[string]int`. */
  text: string;
}

export interface GoFunctionSig {
  name: string;
  /** `file.go:line:col` (file relative to the app dir). */
  pos: string;
  doc?: string;
  params: { name: string; type: GoTypeExpr }[];
  results: GoTypeExpr[];
}

export interface GoTypeDecl {
  name: string;
  pos: string;
  doc?: string;
  kind: "struct" | "other";
  fields: GoFieldDecl[];
  under?: GoTypeExpr;
}

export interface GoFieldDecl {
  name: string;
  type: GoTypeExpr;
  pos: string;
  exported: boolean;
  embedded?: boolean;
  /** The `json` struct tag's value (`name,omitempty`, `-`). */
  json?: string;
  doc?: string;
}

/** The JSON printed by trellis-sigs. */
export interface GoSignatures {
  package: string;
  hasMain: boolean;
  functions: GoFunctionSig[];
  types: GoTypeDecl[];
  errors: string[];
}

export interface GoValueSlot {
  /** The Go name (parameter or struct field). */
  name: string;
  /** The WIT name (kebab-case). */
  witName: string;
  goType: GoTypeExpr;
  witType: WitType;
  docs?: string;
}

export interface GoExport {
  goName: string;
  witName: string;
  params: GoValueSlot[];
  /** The value result (absent for a function returning nothing or only `error`). */
  result?: { goType: GoTypeExpr; witType: WitType };
  returnsError: boolean;
}

export interface GoRecord {
  goName: string;
  witName: string;
  fields: GoValueSlot[];
}

/** What the glue generator needs: the world plus how each WIT item maps back to Go. */
export interface GoAppModel {
  world: AppWorld;
  exports: GoExport[];
  /** Records in dependency order (fields' records first). */
  records: GoRecord[];
  hasMain: boolean;
}

export interface GoModelResult {
  model: GoAppModel;
  /** Unsupported signatures, one line each (`file:line:col: …`). Non-empty means the build must stop. */
  problems: string[];
  warnings: string[];
}

const GO_PRIMITIVES: Record<string, WitPrimitive> = {
  string: "string",
  bool: "bool",
  int: "s32",
  int8: "s8",
  int16: "s16",
  int32: "s32",
  rune: "s32",
  int64: "s64",
  uint: "u32",
  uint8: "u8",
  byte: "u8",
  uint16: "u16",
  uint32: "u32",
  uint64: "u64",
  float32: "f32",
  float64: "f64",
};

/** `GetURLPath` → `get-url-path`, `UserID` → `user-id`, `HTTP2Server` → `http2-server`. */
export function goNameToKebab(name: string): string {
  const words: string[] = [];
  for (const part of name.split("_")) {
    for (const token of part.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []) {
      if (/^[0-9]/.test(token) && words.length > 0) words[words.length - 1] += token;
      else words.push(token.toLowerCase());
    }
  }
  return words.join("-");
}

export function goSignaturesToModel(sigs: GoSignatures): GoModelResult {
  const problems = [...sigs.errors];
  const warnings: string[] = [];
  const declared = new Map(sigs.types.map((t) => [t.name, t]));
  const records = new Map<string, GoRecord>();
  const inProgress = new Set<string>();
  const world: AppWorld = { types: new Map(), functions: [] };

  const unsupported = (pos: string, t: GoTypeExpr, where: string, hint?: string) => {
    problems.push(`${pos}: unsupported type ${t.text} in ${where}${hint ? ` (${hint})` : ""}`);
    return undefined;
  };

  const recordFor = (decl: GoTypeDecl, pos: string, where: string): WitType | undefined => {
    const witName = goNameToKebab(decl.name);
    if (witName === TIMESTAMP_RECORD.name) {
      problems.push(
        `${decl.pos}: type ${decl.name} clashes with the GraphQL scalar Timestamp (time.Time); rename it`,
      );
      return undefined;
    }
    if (records.has(decl.name)) return { kind: "ref", name: witName };
    if (inProgress.has(decl.name)) {
      problems.push(
        `${pos}: recursive type ${decl.name} in ${where} (WIT records cannot contain themselves)`,
      );
      return undefined;
    }
    inProgress.add(decl.name);
    const fields: GoValueSlot[] = [];
    let ok = true;
    for (const field of decl.fields) {
      if (field.embedded) {
        problems.push(
          `${field.pos}: embedded field ${field.type.text} in struct ${decl.name} is not supported`,
        );
        ok = false;
        continue;
      }
      if (!field.exported) {
        warnings.push(`${field.pos}: unexported field ${field.name} of ${decl.name} is not part of the API`);
        continue;
      }
      const jsonName = field.json?.split(",")[0];
      if (jsonName === "-") continue;
      const fieldWitName = goNameToKebab(jsonName || field.name);
      const clash = fields.find((f) => f.witName === fieldWitName);
      if (clash) {
        problems.push(
          `${field.pos}: fields ${clash.name} and ${field.name} of ${decl.name} both become the field ${fieldWitName}`,
        );
        ok = false;
        continue;
      }
      const witType = witTypeOf(field.type, field.pos, `field ${field.name} of ${decl.name}`);
      if (!witType) ok = false;
      else
        fields.push({
          name: field.name,
          witName: fieldWitName,
          goType: field.type,
          witType,
          ...(field.doc ? { docs: field.doc } : {}),
        });
    }
    inProgress.delete(decl.name);
    if (!ok) return undefined;
    const record: GoRecord = { goName: decl.name, witName, fields };
    records.set(decl.name, record);
    const witRecord: WitRecord = {
      kind: "record",
      name: witName,
      fields: fields.map(
        (f): WitField => ({ name: f.witName, type: f.witType, ...(f.docs ? { docs: f.docs } : {}) }),
      ),
      ...(decl.doc ? { docs: decl.doc } : {}),
    };
    world.types.set(witName, witRecord);
    return { kind: "ref", name: witName };
  };

  const witTypeOf = (t: GoTypeExpr, pos: string, where: string): WitType | undefined => {
    switch (t.kind) {
      case "ident": {
        const name = t.name ?? "";
        const prim = GO_PRIMITIVES[name];
        if (prim) return { kind: "prim", name: prim };
        const decl = declared.get(name);
        if (decl?.kind === "struct") return recordFor(decl, pos, where);
        if (decl)
          return unsupported(pos, t, where, `named type ${name} is not a struct; use its underlying type`);
        if (name === "error") return unsupported(pos, t, where, "error is only allowed as the last result");
        if (name === "any") return unsupported(pos, t, where, "interfaces have no WIT equivalent");
        return unsupported(pos, t, where);
      }
      case "pointer": {
        const of = witTypeOf(t.elem!, pos, where);
        return of && { kind: "option", of };
      }
      case "slice": {
        const of = witTypeOf(t.elem!, pos, where);
        return of && { kind: "list", of };
      }
      case "map":
        return unsupported(pos, t, where, "use a slice of structs");
      case "qualified":
        if (t.package === "time" && t.name === "Time") {
          world.types.set(TIMESTAMP_RECORD.name, TIMESTAMP_RECORD);
          return { kind: "ref", name: TIMESTAMP_RECORD.name };
        }
        return unsupported(pos, t, where, "only types of package main, and time.Time");
      case "array":
        return unsupported(pos, t, where, "use a slice");
      case "ellipsis":
        return unsupported(pos, t, where, "variadic parameters are not supported; use a slice");
      default:
        return unsupported(pos, t, where);
    }
  };

  const exports: GoExport[] = [];
  const witNames = new Map<string, string>();
  for (const fn of sigs.functions) {
    const witName = goNameToKebab(fn.name);
    const clash = witNames.get(witName);
    if (clash) {
      problems.push(`${fn.pos}: ${fn.name} and ${clash} both become the export ${witName}`);
      continue;
    }
    witNames.set(witName, fn.name);
    let ok = true;
    const params: GoValueSlot[] = [];
    for (const p of fn.params) {
      const witType = witTypeOf(p.type, fn.pos, `parameter ${p.name} of ${fn.name}`);
      if (!witType) ok = false;
      else params.push({ name: p.name, witName: goNameToKebab(p.name), goType: p.type, witType });
    }
    const results = [...fn.results];
    const isError = (t: GoTypeExpr | undefined) => t?.kind === "ident" && t.name === "error";
    const returnsError = isError(results[results.length - 1]);
    if (returnsError) results.pop();
    let result: GoExport["result"];
    if (results.length > 1) {
      problems.push(
        `${fn.pos}: ${fn.name} returns ${results.length} values; return one value (a struct for several) and optionally a trailing error`,
      );
      ok = false;
    } else if (results.length === 1) {
      const witType = witTypeOf(results[0]!, fn.pos, `result of ${fn.name}`);
      if (!witType) ok = false;
      else result = { goType: results[0]!, witType };
    }
    if (!ok) continue;
    exports.push({ goName: fn.name, witName, params, result, returnsError });
    world.functions.push({
      name: witName,
      params: params.map((p) => ({ name: p.witName, type: p.witType })),
      result: {
        kind: "result",
        ...(result ? { ok: result.witType } : {}),
        err: { kind: "prim", name: "string" },
      },
      ...(fn.doc ? { docs: fn.doc } : {}),
    });
  }
  if (sigs.functions.length === 0 && problems.length === 0) {
    problems.push("no exported functions found in package main (export a function by capitalizing its name)");
  }
  return {
    model: { world, exports, records: [...records.values()], hasMain: sigs.hasMain },
    // A struct that cannot be used is reported once, not once per function that uses it.
    problems: [...new Set(problems)],
    warnings: [...new Set(warnings)],
  };
}

/**
 * Runs trellis-sigs with the Go toolchain on `appDir`. `sdkDir` is `runtime/sdk/go` (its own module, so
 * `go run .` inside the command's directory resolves without touching the app's go.mod).
 */
export async function extractGoSignatures(
  appDir: string,
  sdkDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<GoSignatures> {
  const cwd = path.join(sdkDir, "cmd", "trellis-sigs");
  const { stdout } = await execFileAsync("go", ["run", ".", path.resolve(appDir)], {
    cwd,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as GoSignatures;
}
