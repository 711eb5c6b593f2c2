/**
 * Generates Dgraph's API for a schema model (reference §2): payload, aggregate and union types; HasFilter,
 * Orderable and union Type enums; Add/Update inputs, Patch, Ref, Filter and Order inputs; the Query,
 * Mutation and Subscription fields. Definitions are kept as SDL text per name so that empty inputs can be
 * cleaned away (Dgraph's cleanSchema) before printing.
 */
import { filterName, mergedFilterInput } from "./search-indexes.ts";
import { type FieldModel, idField, type SchemaModel, type TypeModel } from "./type-model.ts";

const ORDERABLE_TYPES = new Set(["Int", "Int64", "Float", "String", "DateTime"]);
const NUMERIC = new Set(["Int", "Int64", "Float"]);

/** A generated definition: its kind and its field lines (each `name(args): Type`). */
export interface GeneratedDefinition {
  kind: "type" | "enum" | "input";
  fields: string[];
}

export interface GeneratedApi {
  types: Map<string, GeneratedDefinition>;
  enums: Map<string, GeneratedDefinition>;
  inputs: Map<string, GeneratedDefinition>;
  query: string[];
  mutation: string[];
  subscription: string[];
  /** Extra arguments and sibling fields for the input types' object fields. */
  fieldArguments: Map<string, Map<string, string>>;
  aggregateFields: Map<string, string[]>;
}

/** An interface's get query keeps its plain `@id` arguments, deprecated (only `@id(interface: true)` stays). */
const INTERFACE_XID_DEPRECATION =
  ' @deprecated(reason: "@id argument for get query on interface is being deprecated. Only those @id fields which have interface argument set to true will be available in getQuery argument on interface post v21.11.0, please update your schema accordingly.")';

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** Fields that are part of the API's inputs and filters (not custom, not external unless a key). */
function apiFields(type: TypeModel): FieldModel[] {
  return type.fields.filter(
    (f) => !f.custom && !f.lambda && !(f.external && f.name !== type.key && !f.provided),
  );
}

/** `p@en:fr` (several languages) is read-only; `p@.` (any language) cannot be written either. */
const multiLanguage = (f: FieldModel) => f.lang?.includes(":") ?? false;

/** Non-list scalar fields with Min/Max aggregates (the orderables plus multi-language fields). */
function aggregatables(type: TypeModel): FieldModel[] {
  return apiFields(type).filter(
    (f) => !f.list && ((ORDERABLE_TYPES.has(f.typeName) && f.kind !== "id") || f.storedId),
  );
}

/** Non-list scalar fields that can be ordered by (not multi-language ones). */
export function orderables(type: TypeModel): FieldModel[] {
  return aggregatables(type).filter((f) => !multiLanguage(f));
}

function hasFilterFields(type: TypeModel): FieldModel[] {
  return apiFields(type).filter((f) => f.kind !== "id" && !multiLanguage(f));
}

/** Fields an add input takes: not ID (but an extended type's key), not reverse or multi-language. */
function inputFields(type: TypeModel): FieldModel[] {
  return apiFields(type).filter(
    (f) =>
      (f.kind !== "id" || (type.extended && f.name === type.key)) &&
      !f.reverse &&
      !multiLanguage(f) &&
      f.lang !== ".",
  );
}

export function hasIdentifier(type: TypeModel): boolean {
  return idField(type) !== undefined || type.fields.some((f) => f.xid);
}

/** `[PostRef]`, `AuthorRef!`, `String` — the input type of a field, Refs for edges. */
function inputType(f: FieldModel, nullable: boolean): string {
  const base =
    f.kind === "object" || f.kind === "interface" || f.kind === "union"
      ? `${f.typeName}Ref`
      : f.kind === "geo"
        ? `${f.typeName}Ref`
        : f.typeName;
  const element = f.list ? `[${base}${f.elementNonNull ? "!" : ""}]` : base;
  return nullable || !f.nonNull ? element : `${element}!`;
}

export interface GenerateOptions {
  /**
   * For a federated `_service` SDL (reference §4.3): extended types get no get/query/aggregate (the gateway
   * reaches them through `_entities`), and fields of an extended type get no arguments or Aggregate sibling.
   */
  service?: boolean;
}

export function generateApi(model: SchemaModel, options: GenerateOptions = {}): GeneratedApi {
  const api: GeneratedApi = {
    types: new Map(),
    enums: new Map(),
    inputs: new Map(),
    query: [],
    mutation: [],
    subscription: [],
    fieldArguments: new Map(),
    aggregateFields: new Map(),
  };
  for (const name of model.order) {
    const type = model.types.get(name) as TypeModel;
    if (type.remote) continue;
    if (type.kind === "union") generateUnion(api, type);
    else generateType(api, model, type, options.service === true);
  }
  for (const name of model.order) {
    const type = model.types.get(name) as TypeModel;
    if (type.remote || type.kind === "union") continue;
    addFieldArguments(api, model, type, options.service === true);
  }
  cleanEmptyInputs(api);
  return api;
}

function generateUnion(api: GeneratedApi, type: TypeModel): void {
  api.enums.set(`${type.name}Type`, { kind: "enum", fields: [...type.members] });
  api.inputs.set(`${type.name}Filter`, {
    kind: "input",
    fields: [
      `memberTypes: [${type.name}Type!]`,
      ...type.members.map((m) => `${lowerFirst(m)}Filter: ${m}Filter`),
    ],
  });
  api.inputs.set(`${type.name}Ref`, {
    kind: "input",
    fields: type.members.map((m) => `${lowerFirst(m)}Ref: ${m}Ref`),
  });
}

function generateType(api: GeneratedApi, model: SchemaModel, type: TypeModel, service: boolean): void {
  const T = type.name;
  const t = lowerFirst(T);
  const id = idField(type);
  const xids = type.fields.filter((f) => f.xid);
  const order = orderables(type);
  const hasOrder = order.length > 0;
  const listArgs = `(filter: ${T}Filter${hasOrder ? `, order: ${T}Order` : ""}, first: Int, offset: Int)`;

  // Enums
  const hasFields = hasFilterFields(type);
  if (hasFields.length > 0)
    api.enums.set(`${T}HasFilter`, { kind: "enum", fields: hasFields.map((f) => f.name) });
  if (hasOrder) api.enums.set(`${T}Orderable`, { kind: "enum", fields: order.map((f) => f.name) });

  // Filter
  const filter: string[] = [];
  const listedId = id ?? type.fields.find((f) => f.storedId);
  if (listedId !== undefined) filter.push(`${listedId.name}: [ID!]`);
  for (const f of apiFields(type)) {
    if (f.search.length === 0) continue;
    const name = filterName(f.search, f.kind === "enum" ? f.typeName : undefined);
    filter.push(`${f.name}: ${name}`);
    if (name.includes("_") || f.kind === "enum") api.inputs.set(name, { kind: "input", fields: [] });
  }
  if (hasFields.length > 0) filter.push(`has: [${T}HasFilter]`);
  filter.push(`and: [${T}Filter]`, `or: [${T}Filter]`, `not: ${T}Filter`);
  api.inputs.set(`${T}Filter`, { kind: "input", fields: filter });
  if (hasOrder) {
    api.inputs.set(`${T}Order`, {
      kind: "input",
      fields: [`asc: ${T}Orderable`, `desc: ${T}Orderable`, `then: ${T}Order`],
    });
  }

  // Aggregate result
  const aggregate = ["count: Int"];
  for (const f of aggregatables(type)) {
    aggregate.push(`${f.name}Min: ${f.typeName}`, `${f.name}Max: ${f.typeName}`);
    if (NUMERIC.has(f.typeName)) aggregate.push(`${f.name}Sum: ${f.typeName}`, `${f.name}Avg: Float`);
  }
  api.types.set(`${T}AggregateResult`, { kind: "type", fields: aggregate });

  // Inputs
  const fields = inputFields(type);
  const secret = type.secret;
  if (type.kind === "object") {
    const add = fields.map((f) => `${f.name}: ${inputType(f, false)}`);
    if (secret) add.push(`${secret.field}: String!`);
    api.inputs.set(`Add${T}Input`, { kind: "input", fields: add });
  }
  const patch = fields.filter((f) => f.kind !== "id").map((f) => `${f.name}: ${inputType(f, true)}`);
  if (secret) patch.push(`${secret.field}: String`);
  api.inputs.set(`${T}Patch`, { kind: "input", fields: patch });
  api.inputs.set(`Update${T}Input`, {
    kind: "input",
    fields: [`filter: ${T}Filter!`, `set: ${T}Patch`, `remove: ${T}Patch`],
  });
  api.inputs.set(`${T}Ref`, { kind: "input", fields: refFields(type, id, xids, fields) });

  // Payloads
  if (type.kind === "object")
    api.types.set(`Add${T}Payload`, { kind: "type", fields: [`${t}${listArgs}: [${T}]`, "numUids: Int"] });
  api.types.set(`Update${T}Payload`, { kind: "type", fields: [`${t}${listArgs}: [${T}]`, "numUids: Int"] });
  api.types.set(`Delete${T}Payload`, {
    kind: "type",
    fields: [`${t}${listArgs}: [${T}]`, "msg: String", "numUids: Int"],
  });

  // Query
  const g = type.generate;
  const queries: string[] = [];
  const identifiers = (id ? 1 : 0) + xids.length;
  if (g.get && identifiers > 0) {
    const required = identifiers === 1 ? "!" : "";
    const args = [
      ...(id ? [`${id.name}: ID${required}`] : []),
      ...xids.map(
        (x) =>
          `${x.name}: ${x.typeName}${required}${type.kind === "interface" && !x.xidInterface ? INTERFACE_XID_DEPRECATION : ""}`,
      ),
    ];
    queries.push(`get${T}(${args.join(", ")}): ${T}`);
  }
  if (secret && g.password && identifiers > 0) {
    const key = id ?? xids[0];
    queries.push(
      `check${T}Password(${key.name}: ${key.kind === "id" ? "ID" : key.typeName}!, ${secret.field}: String!): ${T}`,
    );
  }
  if (g.query) queries.push(`query${T}${listArgs}: [${T}]`);
  if (g.aggregate) queries.push(`aggregate${T}(filter: ${T}Filter): ${T}AggregateResult`);
  if (service && type.extended) queries.length = 0;
  api.query.push(...queries);
  if (type.withSubscription || g.subscription) {
    api.subscription.push(...queries.filter((q) => !q.startsWith(`check${T}Password`)));
  }

  // Mutation
  if (type.kind === "object" && g.add) {
    api.mutation.push(
      `add${T}(input: [Add${T}Input!]!${xids.length > 0 ? ", upsert: Boolean" : ""}): Add${T}Payload`,
    );
  }
  if (g.update) api.mutation.push(`update${T}(input: Update${T}Input!): Update${T}Payload`);
  if (g.delete) api.mutation.push(`delete${T}(filter: ${T}Filter!): Delete${T}Payload`);
  void model;
}

function refFields(
  type: TypeModel,
  id: FieldModel | undefined,
  xids: FieldModel[],
  fields: FieldModel[],
): string[] {
  if (type.kind === "interface") {
    const out = [...(id ? [`${id.name}: ID`] : []), ...xids.map((x) => `${x.name}: ${x.typeName}`)];
    if (out.length === 1) out[0] = `${out[0]}!`;
    return out;
  }
  const out = [
    ...(id ? [`${id.name}: ID`] : []),
    ...fields.filter((f) => f.kind !== "id" || f.storedId).map((f) => `${f.name}: ${inputType(f, true)}`),
  ];
  if (type.secret) out.push(`${type.secret.field}: String`);
  if (out.length === 1) out[0] = `${out[0]}!`;
  return out;
}

/** Arguments on the input types' edge fields, and `<f>Aggregate` siblings for lists of objects. */
function addFieldArguments(api: GeneratedApi, model: SchemaModel, type: TypeModel, service: boolean): void {
  const args = new Map<string, string>();
  const aggregates: string[] = [];
  for (const f of type.fields) {
    if (f.custom || f.lambda) continue;
    if (f.kind !== "object" && f.kind !== "interface" && f.kind !== "union") continue;
    const target = model.types.get(f.typeName);
    if (target === undefined || target.remote) continue;
    if (target.extended && service) continue;
    const U = f.typeName;
    if (!f.list) {
      args.set(f.name, `(filter: ${U}Filter)`);
      continue;
    }
    const ordered = f.kind !== "union" && api.inputs.has(`${U}Order`);
    args.set(f.name, `(filter: ${U}Filter${ordered ? `, order: ${U}Order` : ""}, first: Int, offset: Int)`);
    if (f.kind !== "union") aggregates.push(`${f.name}Aggregate(filter: ${U}Filter): ${U}AggregateResult`);
  }
  api.fieldArguments.set(type.name, args);
  api.aggregateFields.set(type.name, aggregates);
}

/** Dgraph's cleanSchema: empty Ref/Patch/Add/Update inputs go, with the fields and mutations naming them. */
function cleanEmptyInputs(api: GeneratedApi): void {
  for (const [name, def] of api.inputs) {
    if (def.fields.length === 0 && name.includes("_"))
      def.fields = mergedFilterInput(name)
        .split("\n")
        .slice(1, -1)
        .map((l) => l.trim());
  }
  for (;;) {
    const empty = [...api.inputs].filter(
      ([name, def]) =>
        (def.fields.length === 0 ||
          (name.startsWith("Update") &&
            name.endsWith("Input") &&
            def.fields.every((f) => f.startsWith("filter:")))) &&
        /(Ref|Patch|Input)$/.test(name),
    );
    if (empty.length === 0) break;
    const gone = new Set(empty.map(([name]) => name));
    for (const name of gone) api.inputs.delete(name);
    const mentions = (line: string) => [...gone].some((g) => new RegExp(`\\b${g}\\b`).test(line));
    for (const def of api.inputs.values()) def.fields = def.fields.filter((f) => !mentions(f));
    api.mutation = api.mutation.filter((m) => !mentions(m));
  }
}
