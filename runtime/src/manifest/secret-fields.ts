import type { Connection, ParsedManifest } from "./manifest-schema.ts";

/** The settings of a connection where placeholders are filled, with their paths inside the connection. */
export function secretFields(
  conn: ParsedManifest["connections"][string] | Connection,
): { field: string; value: string }[] {
  const fields: { field: string; value: string }[] = [];
  const add = (field: string, value: string | undefined) => {
    if (value !== undefined) fields.push({ field, value });
  };
  if (conn.type === "http") {
    for (const [k, v] of Object.entries(conn.headers)) add(`headers.${k}`, v);
    for (const [k, v] of Object.entries(conn.queryParameters)) add(`queryParameters.${k}`, v);
  } else if (conn.type === "graphdb" || conn.type === "dgraph") {
    add("grpcTarget", conn.grpcTarget);
    add("key", conn.key);
    if ("connStr" in conn) add("connStr", conn.connStr);
    if ("connString" in conn) add("connString", conn.connString);
  } else {
    add("connStr", conn.connStr);
    if ("connString" in conn) add("connString", conn.connString);
  }
  return fields;
}
