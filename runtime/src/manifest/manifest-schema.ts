/**
 * The app manifest (`trellis.json`) as a zod schema: the single source of truth for validation, for the
 * TypeScript types (inferred below) and for the JSON Schema editors use (manifest-json-schema.ts).
 *
 * The schema accepts what users write, including Modus's spellings (`postgresql`, `mysql`, `dgraph`,
 * `connString`) so existing `modus.json` files keep working; parse-manifest.ts normalizes them to the
 * canonical shapes (`relationaldb`, `graphdb`, `connStr`) the rest of the runtime sees.
 */
import { z } from "zod";
import { scanPlaceholders } from "./placeholder.ts";

/** Names of endpoints, models and connections, as Modus allows them. */
export const NAME_PATTERN = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MEMORY_MB = 256;

const nameSchema = z
  .string()
  .min(1)
  .max(63, { error: "names are at most 63 characters" })
  .regex(NAME_PATTERN, { error: "names are letters and digits with single hyphens between them" });

/** A setting where secret placeholders are filled in. */
const placeholderString = z.string().superRefine((value, ctx) => {
  for (const bad of scanPlaceholders(value).bad) {
    ctx.addIssue({
      code: "custom",
      message: `bad placeholder "${bad}": write {{NAME}} (letters, digits, _) or {{base64(USER:PASS)}}`,
    });
  }
});

/** A URL where placeholders are refused: they exist for secrets, not for addresses (Modus issue #701). */
function urlWithoutPlaceholders(pattern: RegExp, expected: string) {
  return z.string().superRefine((value, ctx) => {
    if (value.includes("{{")) {
      ctx.addIssue({
        code: "custom",
        message: "placeholders are not filled in URLs; put secrets in headers or queryParameters",
      });
    } else if (!pattern.test(value)) {
      ctx.addIssue({ code: "custom", message: expected });
    }
  });
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export const httpConnectionSchema = z
  .strictObject({
    type: z.literal("http"),
    baseUrl: urlWithoutPlaceholders(
      /^https?:\/\/\S+\/$/,
      'must be an http(s) URL ending with "/" (requests are allowed under this prefix)',
    )
      .optional()
      .describe('URL prefix outbound requests may use; must end with "/". Exclusive with endpoint.'),
    endpoint: urlWithoutPlaceholders(/^https?:\/\/\S+$/, "must be an http(s) URL")
      .optional()
      .describe("The one URL outbound requests may use. Exclusive with baseUrl."),
    headers: z
      .record(
        z.string().regex(HEADER_NAME, { error: "not a valid HTTP header name" }),
        placeholderString.min(1, { error: "header values must not be empty" }),
      )
      .default({})
      .describe("Headers added to every request, e.g. Authorization: Bearer {{API_KEY}}."),
    queryParameters: z
      .record(z.string().min(1), placeholderString)
      .default({})
      .describe("Query parameters added to every request."),
    timeoutMs: z
      .int()
      .positive()
      .optional()
      .describe("Timeout of each outbound request (default: limits.timeoutMs)."),
  })
  .superRefine((c, ctx) => {
    if (c.baseUrl === undefined && c.endpoint === undefined) {
      ctx.addIssue({ code: "custom", path: ["baseUrl"], message: "required (or give endpoint)" });
    } else if (c.baseUrl !== undefined && c.endpoint !== undefined) {
      ctx.addIssue({ code: "custom", path: ["endpoint"], message: "give baseUrl or endpoint, not both" });
    }
  });

const RELATIONAL_URL = /^(postgres|postgresql|mysql|mariadb):\/\//;

/** `relationaldb`, or Modus's `postgresql` / `mysql`; `connString` is Modus's spelling of `connStr`. */
export const relationalConnectionSchema = z
  .strictObject({
    type: z.enum(["relationaldb", "postgresql", "mysql"]),
    connStr: placeholderString
      .optional()
      .describe("postgres://, postgresql://, mysql:// or mariadb:// URL; secrets as placeholders."),
    connString: placeholderString.optional().describe("Modus spelling of connStr."),
  })
  .superRefine((c, ctx) => {
    const key = c.connStr !== undefined ? "connStr" : "connString";
    const value = c.connStr ?? c.connString;
    if (c.connStr !== undefined && c.connString !== undefined) {
      ctx.addIssue({ code: "custom", path: ["connString"], message: "give connStr or connString, not both" });
    } else if (value === undefined) {
      ctx.addIssue({ code: "custom", path: ["connStr"], message: "required" });
    } else if (!/^\{\{/.test(value.trim())) {
      // A connection string that is one placeholder (the spec's usual form) is checked once filled in.
      const scheme = RELATIONAL_URL.exec(value)?.[1];
      const allowed =
        c.type === "postgresql"
          ? ["postgres", "postgresql"]
          : c.type === "mysql"
            ? ["mysql", "mariadb"]
            : ["postgres", "postgresql", "mysql", "mariadb"];
      if (!scheme || !allowed.includes(scheme)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `must start with ${allowed.map((s) => `${s}://`).join(", ")}`,
        });
      }
    }
  });

/** `graphdb`, or Modus's `dgraph`: a gRPC target (`host:port`) with an optional key, or a `dgraph://` URL. */
export const graphConnectionSchema = z
  .strictObject({
    type: z.enum(["graphdb", "dgraph"]),
    grpcTarget: placeholderString
      .optional()
      .describe("host:port or dgraph://host:port?…, of Trellis or Dgraph."),
    key: placeholderString.optional().describe("Sent as a bearer token (an API key for Dgraph Cloud)."),
    connStr: placeholderString.optional().describe("A dgraph:// connection string (instead of grpcTarget)."),
    connString: placeholderString.optional().describe("Modus spelling of connStr."),
  })
  .superRefine((c, ctx) => {
    const given = (["grpcTarget", "connStr", "connString"] as const).filter((k) => c[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: "custom",
        path: [given[1] ?? "grpcTarget"],
        message: "give exactly one of grpcTarget or connStr",
      });
      return;
    }
    const key = given[0];
    const value = c[key] as string;
    if (key !== "grpcTarget" && !value.startsWith("dgraph://")) {
      ctx.addIssue({ code: "custom", path: [key], message: "must start with dgraph://" });
    }
    if (key !== "grpcTarget" && c.key !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["key"],
        message: "put the key in the connection string (bearertoken=… or apikey=…) or use grpcTarget",
      });
    }
  });

export const CONNECTION_TYPES = ["http", "relationaldb", "graphdb"] as const;
export const MODUS_CONNECTION_TYPES = ["postgresql", "mysql", "dgraph"] as const;

export const connectionSchema = z.discriminatedUnion("type", [
  httpConnectionSchema,
  relationalConnectionSchema,
  graphConnectionSchema,
]);

export const modelSchema = z.strictObject({
  sourceModel: z.string().min(1).optional().describe('The provider\'s model name, sent as "model".'),
  connection: nameSchema.describe("An http connection of this manifest."),
  path: z
    .string()
    .min(1)
    .optional()
    .describe("Path under the connection's baseUrl (required with baseUrl, not allowed with endpoint)."),
});

export const endpointSchema = z.strictObject({
  type: z.literal("graphql"),
  path: z
    .string()
    .regex(/^\/\S*$/, { error: 'must start with "/" and contain no spaces' })
    .refine((p) => !["/health", "/metrics", "/explorer"].includes(p), { error: "is reserved" })
    .default("/graphql"),
  auth: z
    .enum(["none", "bearer-token", "jwt"])
    .default("bearer-token")
    .describe(
      'Who may call: "bearer-token" an API key of the app; "jwt" an API key or a JWT of the app\'s users, verified with the keys of TRELLIS_JWT_PEMS / TRELLIS_JWT_JWKS_ENDPOINTS; "none" anyone.',
    ),
  functions: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe(
      'The functions this endpoint serves, by GraphQL field name (e.g. ["sayHello"]); all of them when absent. A public ("auth": "none") endpoint a web page calls should list only what the page needs.',
    ),
});

export const limitsSchema = z.strictObject({
  timeoutMs: z
    .int()
    .positive()
    .max(3_600_000)
    .default(DEFAULT_TIMEOUT_MS)
    .describe("Per function call, and default for each outbound call (ms)."),
  memoryMb: z
    .int()
    .min(16)
    .max(4096)
    .default(DEFAULT_MEMORY_MB)
    .describe("Memory cap per function instance (MiB)."),
});

/** `Type.field` of the app's graph database schema, as Dgraph names lambda resolvers. */
export const LAMBDA_RESOLVER_PATTERN = /^[_A-Za-z][_0-9A-Za-z]*\.[_A-Za-z][_0-9A-Za-z]*$/;
/** A function as the app's GraphQL API names it (the exported function's camelCase name). */
export const FUNCTION_NAME_PATTERN = /^[_A-Za-z][_0-9A-Za-z]*$/;

export const lambdasSchema = z
  .record(
    z.string().regex(LAMBDA_RESOLVER_PATTERN, {
      error: 'lambda keys are "Type.field", e.g. "Product.shippingEstimate"',
    }),
    z
      .string()
      .regex(FUNCTION_NAME_PATTERN, { error: "must name one of the app's functions, e.g. shippingEstimate" }),
  )
  .describe(
    'The graph database\'s @lambda fields this app\'s functions serve: "Type.field" (or "Query.field", "Mutation.field") → function name.',
  );

export const DEFAULT_WEB_ROOT = "web";

export const webSchema = z
  .strictObject({
    root: z
      .string()
      .min(1)
      .refine((p) => !p.startsWith("/") && !p.split(/[\\/]/).includes(".."), {
        error: "must be a relative path inside the app",
      })
      .default(DEFAULT_WEB_ROOT)
      .describe("The front end's Vite project (its index.html and vite.config), relative to trellis.json."),
    spaFallback: z
      .boolean()
      .default(true)
      .describe("Serve index.html for paths that match no file (client-side routes)."),
  })
  .describe("The app's front end, built by Vite into build/static and served at the app's URL.");

export const DEFAULT_ENDPOINTS = {
  default: { type: "graphql" as const, path: "/graphql", auth: "bearer-token" as const },
};

export const manifestSchema = z.strictObject({
  $schema: z.string().optional(),
  endpoints: z.record(nameSchema, endpointSchema).default(DEFAULT_ENDPOINTS),
  models: z.record(nameSchema, modelSchema).default({}),
  connections: z.record(nameSchema, connectionSchema).default({}),
  limits: limitsSchema.default({ timeoutMs: DEFAULT_TIMEOUT_MS, memoryMb: DEFAULT_MEMORY_MB }),
  lambdas: lambdasSchema.default({}),
  web: webSchema.optional(),
});

/** The manifest as written (before defaults and alias normalization). */
export type ManifestInput = z.input<typeof manifestSchema>;
/** What the schema produces: defaults filled, Modus spellings still present. */
export type ParsedManifest = z.output<typeof manifestSchema>;

export type HttpConnection = z.output<typeof httpConnectionSchema>;
/** A relational database connection, normalized: the URL scheme picks PostgreSQL or MySQL/MariaDB. */
export interface RelationalConnection {
  type: "relationaldb";
  connStr: string;
}
/** A graph database connection, normalized: `grpcTarget` is `host:port` or a `dgraph://` URL. */
export interface GraphConnection {
  type: "graphdb";
  grpcTarget: string;
  key?: string;
}
export type Connection = HttpConnection | RelationalConnection | GraphConnection;
export type ConnectionType = Connection["type"];
export type ModelConfig = z.output<typeof modelSchema>;
export type EndpointConfig = z.output<typeof endpointSchema>;
export type Limits = z.output<typeof limitsSchema>;
export type WebConfig = z.output<typeof webSchema>;

/** The validated, normalized manifest the runtime works with. */
export interface Manifest {
  endpoints: Record<string, EndpointConfig>;
  models: Record<string, ModelConfig>;
  connections: Record<string, Connection>;
  limits: Limits;
  /** `Type.field` → the function that serves that `@lambda` field of the app's graph database. */
  lambdas: Record<string, string>;
  /** The front end, when the app has one. */
  web?: WebConfig;
  /** How the input was read: Modus spellings normalized, modus.json used. For the dev banner. */
  notices: string[];
}
