/** Types mapped onto predicates that are IRIs (`@dgraph(pred: "</film/film/starring>")`), as imported data has. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { GraphDB } from "../../src/engine/graph-db.ts";
import { GraphQLService } from "../../src/graphql/graphql-service.ts";

let dir: string;
let db: GraphDB;
let service: GraphQLService;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphql-iri-"));
  db = new GraphDB({ dir });
  service = new GraphQLService(db);
  await service.updateSchema(
    0,
    `type Film @dgraph(type: "Film") {
      id: ID!
      name: String @dgraph(pred: "http://schema.org/name") @search(by: [term, exact])
      cast: [Person] @dgraph(pred: "/film/film/starring")
    }
    type Person @dgraph(type: "Person") {
      id: ID!
      name: String @dgraph(pred: "http://schema.org/name") @search(by: [term, exact])
      films: [Film] @dgraph(pred: "~/film/film/starring")
    }`,
  );
  await db.mutate({
    commitNow: true,
    mutations: [
      {
        setNquads: `_:f <dgraph.type> "Film" .
_:f <http://schema.org/name> "Blade Runner" .
_:f </film/film/starring> _:a .
_:f </film/film/starring> _:b .
_:a <dgraph.type> "Person" .
_:a <http://schema.org/name> "Harrison Ford" .
_:b <dgraph.type> "Person" .
_:b <http://schema.org/name> "Sean Young" .`,
      },
    ],
  });
});

afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

it("reads, filters, orders and follows edges and reverse edges of IRI predicates", async () => {
  const r = JSON.parse(
    JSON.stringify(
      await service.execute(0, {
        query: `{
          queryFilm(filter: { name: { allofterms: "blade runner" } }) {
            name
            cast(order: { desc: name }, filter: { name: { anyofterms: "ford young" } }) { name films { name } }
            castAggregate { count nameMin }
          }
        }`,
      }),
    ),
  );
  expect(r).toEqual({
    data: {
      queryFilm: [
        {
          name: "Blade Runner",
          cast: [
            { name: "Sean Young", films: [{ name: "Blade Runner" }] },
            { name: "Harrison Ford", films: [{ name: "Blade Runner" }] },
          ],
          castAggregate: { count: 2, nameMin: "Harrison Ford" },
        },
      ],
    },
  });
});
