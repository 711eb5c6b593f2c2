/**
 * Schema queries: `schema {}`, `schema(pred: [name, age]) { type index }`, `schema(type: Person) {}`.
 * Follows Dgraph's `getSchema` (including its error texts, typos included).
 */
import type { SchemaQuery, SourceLocation } from "./ast.ts";
import type { TokenStream } from "./token-stream.ts";

/** `[a, b]` after the `[`. */
function parseNameList(ts: TokenStream): string[] {
  const names: string[] = [];
  while (ts.next()) {
    let item = ts.item;
    switch (item.kind) {
      case "RightSquare":
        return names;
      case "Name":
        names.push(ts.collectName(item.value));
        break;
      case "Comma":
        ts.next();
        item = ts.item;
        if (item.kind !== "Name") throw ts.errorAt(item, "Invalid scheam block");
        names.push(ts.collectName(item.value));
        break;
      default:
        throw ts.errorAt(item, "Invalid schema block");
    }
  }
  throw ts.errorNext("Expecting ] to end list but none was found");
}

/** Parses a schema block after the `schema` keyword. */
export function parseSchemaQuery(ts: TokenStream, loc: SourceLocation): SchemaQuery {
  let predicates: string[] | undefined;
  let types: string[] | undefined;
  let leftRoundSeen = false;
  while (ts.next()) {
    let item = ts.item;
    switch (item.kind) {
      case "LeftCurl": {
        const fields: string[] = [];
        while (ts.next()) {
          const field = ts.item;
          if (field.kind === "RightCurl") {
            const query: { -readonly [K in keyof SchemaQuery]: SchemaQuery[K] } = {
              kind: "SchemaQuery",
              fields,
              loc,
            };
            if (predicates !== undefined) query.predicates = predicates;
            if (types !== undefined) query.types = types;
            return query;
          }
          if (field.kind !== "Name") throw ts.errorAt(field, "Invalid schema block.");
          fields.push(field.value);
        }
        throw ts.errorNext("Expecting } to end fields list, but none was found");
      }
      case "LeftRound": {
        if (leftRoundSeen) throw ts.errorAt(item, "Too many left rounds in schema block");
        leftRoundSeen = true;
        ts.next();
        item = ts.item;
        if (item.kind !== "Name") throw ts.errorAt(item, "Invalid schema block");
        const isTypes = item.value === "type";
        ts.next();
        item = ts.item;
        if (item.kind !== "Colon") throw ts.errorAt(item, "Invalid schema block");
        ts.next();
        item = ts.item;
        let names: string[];
        if (item.kind === "Name") names = [item.value];
        else if (item.kind === "LeftSquare") names = parseNameList(ts);
        else throw ts.errorAt(item, "Invalid schema block");
        if (isTypes) types = names;
        else predicates = names;
        ts.next();
        item = ts.item;
        if (item.kind !== "RightRound") throw ts.errorAt(item, "Invalid schema blocks");
        break;
      }
      default:
        throw ts.errorAt(item, "Invalid schema block");
    }
  }
  throw ts.errorNext("Invalid schema block.");
}
