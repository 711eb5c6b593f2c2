/**
 * Reads manifest text (JSONC: comments and trailing commas allowed) into a validated, normalized
 * `Manifest`, or throws one `ManifestError` naming every problem by its JSON path.
 */
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import type { z } from "zod";
import { envVarName } from "../secrets/env-var-name.ts";
import { ManifestError, type ManifestProblem } from "./manifest-error.ts";
import {
  CONNECTION_TYPES,
  type Connection,
  type Manifest,
  MODUS_CONNECTION_TYPES,
  manifestSchema,
  type ParsedManifest,
} from "./manifest-schema.ts";
import { placeholderNames, scanPlaceholders } from "./placeholder.ts";
import { secretFields } from "./secret-fields.ts";

/** Connection names whose secret variables would be app secrets (`TRELLIS_APP_*`), readable by guests. */
const RESERVED_CONNECTION_NAMES = ["app"];

/** Parses and validates manifest text; `file` names it in errors (default `trellis.json`). */
export function parseManifest(text: string, file = "trellis.json"): Manifest {
  const syntaxErrors: ParseError[] = [];
  const raw: unknown = parse(text, syntaxErrors, { allowTrailingComma: true, disallowComments: false });
  if (syntaxErrors.length > 0) {
    throw new ManifestError(
      syntaxErrors.map((e) => ({ path: `${file}:${lineColumn(text, e.offset)}`, message: syntaxMessage(e) })),
      file,
    );
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ManifestError([{ path: "(root)", message: "must be a JSON object" }], file);
  }

  const problems: ManifestProblem[] = [];
  const result = manifestSchema.safeParse(raw, {
    error: (iss) => (iss.code !== "custom" && iss.input === undefined ? "required" : undefined),
  });
  if (!result.success) problems.push(...result.error.issues.flatMap((i) => issueProblems(i, raw)));
  problems.push(...crossCheck(raw as Record<string, unknown>));
  if (result.success) problems.push(...variableCollisions(result.data));
  if (problems.length > 0) throw new ManifestError(dedupe(problems), file);
  return normalize(result.data!);
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

function syntaxMessage(e: ParseError): string {
  const code = printParseErrorCode(e.error);
  // "PropertyNameExpected" → "property name expected"
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const p of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function issueProblems(issue: z.core.$ZodIssue, raw: unknown): ManifestProblem[] {
  const path = pathText(issue.path);
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((k) => ({ path: pathText([...issue.path, k]), message: "unknown field" }));
    case "invalid_key":
      return [{ path, message: `invalid name: ${issue.issues[0]?.message ?? issue.message}` }];
    case "invalid_union":
      if ("discriminator" in issue && issue.discriminator === "type") {
        const given = valueAt(raw, issue.path);
        const expected = `${CONNECTION_TYPES.join(", ")} (or Modus's ${MODUS_CONNECTION_TYPES.join(", ")})`;
        return [
          {
            path,
            message:
              given === undefined
                ? `required: one of ${expected}`
                : `unknown connection type ${JSON.stringify(given)}; expected ${expected}`,
          },
        ];
      }
      return [{ path, message: issue.message }];
    default:
      return [{ path, message: issue.message }];
  }
}

/** Checks between sections, on the raw input so they are reported alongside schema problems. */
function crossCheck(raw: Record<string, unknown>): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const connections = (isRecord(raw.connections) ? raw.connections : {}) as Record<string, unknown>;
  for (const name of Object.keys(connections)) {
    if (RESERVED_CONNECTION_NAMES.includes(name.toLowerCase())) {
      problems.push({
        path: `connections.${name}`,
        message: `the name "${name}" is reserved (TRELLIS_APP_* variables are app secrets)`,
      });
    }
  }
  const models = isRecord(raw.models) ? raw.models : {};
  for (const [name, model] of Object.entries(models)) {
    if (!isRecord(model) || typeof model.connection !== "string") continue;
    const conn = connections[model.connection];
    if (!Object.hasOwn(connections, model.connection)) {
      problems.push({
        path: `models.${name}.connection`,
        message: `unknown connection ${JSON.stringify(model.connection)}`,
      });
      continue;
    }
    if (!isRecord(conn) || conn.type !== "http") {
      problems.push({
        path: `models.${name}.connection`,
        message: `connection ${JSON.stringify(model.connection)} is not an http connection`,
      });
      continue;
    }
    if (conn.baseUrl !== undefined && model.path === undefined) {
      problems.push({
        path: `models.${name}.path`,
        message: `required: connection "${model.connection}" has a baseUrl, so the model needs a path under it`,
      });
    }
    if (conn.endpoint !== undefined && model.path !== undefined) {
      problems.push({
        path: `models.${name}.path`,
        message: `not allowed: connection "${model.connection}" has an endpoint, which is the model's URL`,
      });
    }
  }
  const endpoints = isRecord(raw.endpoints) ? raw.endpoints : {};
  const seen = new Map<string, string>();
  for (const [name, endpoint] of Object.entries(endpoints)) {
    if (!isRecord(endpoint) || typeof endpoint.path !== "string") continue;
    const other = seen.get(endpoint.path);
    if (other !== undefined) {
      problems.push({ path: `endpoints.${name}.path`, message: `same path as endpoint "${other}"` });
    }
    seen.set(endpoint.path, name);
  }
  return problems;
}

/**
 * Two connections reading the same variable (`my` + `{{API_KEY}}` and `my-api` + `{{KEY}}` both read
 * TRELLIS_MY_API_KEY) would silently share a secret; Modus has this pitfall, we refuse it.
 */
function variableCollisions(m: ParsedManifest): ManifestProblem[] {
  const owner = new Map<string, { connection: string; placeholder: string }>();
  const problems: ManifestProblem[] = [];
  for (const [connection, conn] of Object.entries(m.connections)) {
    for (const { field, value } of secretFields(conn)) {
      for (const p of scanPlaceholders(value).placeholders) {
        for (const placeholder of placeholderNames(p)) {
          const variable = envVarName(connection, placeholder);
          const prev = owner.get(variable);
          if (prev && prev.connection !== connection) {
            problems.push({
              path: `connections.${connection}.${field}`,
              message: `{{${placeholder}}} reads ${variable}, which connection "${prev.connection}" also reads for {{${prev.placeholder}}}; rename a connection or placeholder`,
            });
          } else owner.set(variable, { connection, placeholder });
        }
      }
    }
  }
  return problems;
}

function normalize(m: ParsedManifest): Manifest {
  const notices: string[] = [];
  const connections: Record<string, Connection> = {};
  for (const [name, c] of Object.entries(m.connections)) {
    if (c.type === "http") {
      connections[name] = c;
      continue;
    }
    if (c.type === "postgresql" || c.type === "mysql" || c.type === "dgraph") {
      const canonical = c.type === "dgraph" ? "graphdb" : "relationaldb";
      notices.push(`connections.${name}: Modus type "${c.type}" read as "${canonical}"`);
    }
    if (c.connString !== undefined)
      notices.push(`connections.${name}: Modus field "connString" read as "connStr"`);
    if (c.type === "graphdb" || c.type === "dgraph") {
      const grpcTarget = (c.grpcTarget ?? c.connStr ?? c.connString)!;
      connections[name] =
        c.key === undefined ? { type: "graphdb", grpcTarget } : { type: "graphdb", grpcTarget, key: c.key };
    } else {
      connections[name] = { type: "relationaldb", connStr: (c.connStr ?? c.connString)! };
    }
  }
  const manifest: Manifest = {
    endpoints: m.endpoints,
    models: m.models,
    connections,
    limits: m.limits,
    lambdas: m.lambdas,
    notices,
  };
  if (m.web !== undefined) manifest.web = m.web;
  return manifest;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function dedupe(problems: ManifestProblem[]): ManifestProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\0${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
