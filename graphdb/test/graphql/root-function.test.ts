/** Which part of a filter a generated query starts from: an index that can answer it, never a scan. */
import { describe, expect, it } from "vitest";
import { rootFunction } from "../../src/graphql/execution/filter-rewriter.ts";
import { buildGraphQLSchema } from "../../src/graphql/schema/build-graphql-schema.ts";

const { model } = buildGraphQLSchema(`
type Film {
  id: ID!
  name: String @search(by: [term, hash])
  title: String @search(by: [exact])
  year: Int @search
  tags: [String] @search(by: [exact])
  note: String
}`);
const film = model.types.get("Film");
if (film === undefined) throw new Error("no Film");

describe("root function of a generated query", () => {
  it("starts from an id list, or an indexed operator the field's index answers", () => {
    const func = (filter: unknown) => rootFunction(film, filter)?.func;
    expect(func({ id: ["0x1", "0x2"] })).toBe("uid(0x1, 0x2)");
    expect(func({ name: { allofterms: "star wars" } })).toBe('allofterms(Film.name, "star wars")');
    expect(func({ name: { eq: "Alien" } })).toBe('eq(Film.name, "Alien")');
    expect(func({ title: { ge: "M" } })).toBe('ge(Film.title, "M")');
    expect(func({ year: { between: { min: 1990, max: 1999 } } })).toBe("between(Film.year, 1990, 1999)");
  });

  it("leaves the rest of the filter, without the condition it starts from", () => {
    expect(rootFunction(film, { id: ["0x1"], note: { eq: "x" } })?.rest).toEqual({ note: { eq: "x" } });
    expect(rootFunction(film, { name: { allofterms: "a b", eq: "a b" } })).toEqual({
      func: 'allofterms(Film.name, "a b")',
      rest: { name: { eq: "a b" } },
    });
    expect(rootFunction(film, { name: { anyofterms: "x" }, or: [{ year: { eq: 1 } }] })).toEqual({
      func: 'anyofterms(Film.name, "x")',
      rest: { or: [{ year: { eq: 1 } }] },
    });
    expect(rootFunction(film, { year: { eq: 3 } })?.rest).toEqual({});
  });

  it("keeps scanning the type when no index answers the filter", () => {
    expect(rootFunction(film, { name: { le: "M" } })).toBeUndefined();
    expect(rootFunction(film, { note: { eq: "x" } })).toBeUndefined();
    expect(rootFunction(film, { or: [{ year: { eq: 1 } }, { year: { eq: 2 } }] })).toBeUndefined();
    expect(rootFunction(film, { tags: { eq: "x" } })).toBeUndefined();
    expect(rootFunction(film, undefined)).toBeUndefined();
  });
});
