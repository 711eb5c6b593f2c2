/**
 * The generated API for input schemas, compared structurally with what Dgraph generates for them (reference
 * §2: names, shapes, argument presence rules, filters, cleanup) and the DQL schema beneath (§3.1).
 */
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  isEnumType,
  isInputObjectType,
  isObjectType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { buildGraphQLSchema } from "../../src/graphql/schema/build-graphql-schema.ts";

function fields(type: GraphQLNamedType | undefined | null): Record<string, string> {
  if (!type || !(isObjectType(type) || isInputObjectType(type)))
    throw new Error(`not a type with fields: ${type}`);
  const out: Record<string, string> = {};
  for (const [name, f] of Object.entries((type as GraphQLObjectType | GraphQLInputObjectType).getFields())) {
    const args = "args" in f ? (f as GraphQLField<unknown, unknown>).args : [];
    const a = args.length ? `(${args.map((x: GraphQLArgument) => `${x.name}: ${x.type}`).join(", ")})` : "";
    out[name] = `${a}${String(f.type)}`;
  }
  return out;
}

function values(type: GraphQLNamedType | undefined | null): string[] {
  if (!type || !isEnumType(type)) throw new Error(`not an enum: ${type}`);
  return type.getValues().map((v) => v.name);
}

describe("generated API: one type (reference §2.6)", () => {
  const { schema, dqlSchema } = buildGraphQLSchema(
    "type Message { id: ID!  content: String!  author: String  uniqueId: Int64  datePosted: DateTime }",
  );
  const q = fields(schema.getQueryType());
  const m = fields(schema.getMutationType());

  it("has get, query and aggregate, and add, update and delete", () => {
    expect(q).toEqual({
      getMessage: "(id: ID!)Message",
      queryMessage: "(filter: MessageFilter, order: MessageOrder, first: Int, offset: Int)[Message]",
      aggregateMessage: "(filter: MessageFilter)MessageAggregateResult",
    });
    expect(m).toEqual({
      addMessage: "(input: [AddMessageInput!]!)AddMessagePayload",
      updateMessage: "(input: UpdateMessageInput!)UpdateMessagePayload",
      deleteMessage: "(filter: MessageFilter!)DeleteMessagePayload",
    });
  });

  it("shapes payloads, the aggregate result and the enums as Dgraph", () => {
    const list = "(filter: MessageFilter, order: MessageOrder, first: Int, offset: Int)[Message]";
    expect(fields(schema.getType("AddMessagePayload"))).toEqual({ message: list, numUids: "Int" });
    expect(fields(schema.getType("UpdateMessagePayload"))).toEqual({ message: list, numUids: "Int" });
    expect(fields(schema.getType("DeleteMessagePayload"))).toEqual({
      message: list,
      msg: "String",
      numUids: "Int",
    });
    expect(fields(schema.getType("MessageAggregateResult"))).toEqual({
      count: "Int",
      contentMin: "String",
      contentMax: "String",
      authorMin: "String",
      authorMax: "String",
      uniqueIdMin: "Int64",
      uniqueIdMax: "Int64",
      uniqueIdSum: "Int64",
      uniqueIdAvg: "Float",
      datePostedMin: "DateTime",
      datePostedMax: "DateTime",
    });
    expect(values(schema.getType("MessageHasFilter"))).toEqual([
      "content",
      "author",
      "uniqueId",
      "datePosted",
    ]);
    expect(values(schema.getType("MessageOrderable"))).toEqual([
      "content",
      "author",
      "uniqueId",
      "datePosted",
    ]);
  });

  it("shapes the inputs as Dgraph", () => {
    expect(fields(schema.getType("AddMessageInput"))).toEqual({
      content: "String!",
      author: "String",
      uniqueId: "Int64",
      datePosted: "DateTime",
    });
    expect(fields(schema.getType("MessagePatch"))).toEqual({
      content: "String",
      author: "String",
      uniqueId: "Int64",
      datePosted: "DateTime",
    });
    expect(fields(schema.getType("MessageRef"))).toEqual({
      id: "ID",
      content: "String",
      author: "String",
      uniqueId: "Int64",
      datePosted: "DateTime",
    });
    expect(fields(schema.getType("MessageFilter"))).toEqual({
      id: "[ID!]",
      has: "[MessageHasFilter]",
      and: "[MessageFilter]",
      or: "[MessageFilter]",
      not: "MessageFilter",
    });
    // Dgraph's order input has a field named "then".
    expect(Object.entries(fields(schema.getType("MessageOrder")))).toEqual([
      ["asc", "MessageOrderable"],
      ["desc", "MessageOrderable"],
      ["then", "MessageOrder"],
    ]);
    expect(fields(schema.getType("UpdateMessageInput"))).toEqual({
      filter: "MessageFilter!",
      set: "MessagePatch",
      remove: "MessagePatch",
    });
  });

  it("stores fields as Type.field predicates of a DQL type", () => {
    expect(dqlSchema).toContain(
      "type <Message> {\n\t<Message.content>\n\t<Message.author>\n\t<Message.uniqueId>\n\t<Message.datePosted>\n}",
    );
    expect(dqlSchema).toContain("<Message.uniqueId>: int .");
    expect(dqlSchema).toContain("<Message.datePosted>: datetime .");
  });
});

describe("generated API: @id, references and nested arguments (fixture field-with-id-directive)", () => {
  const { schema, dqlSchema, generatedSchema } = buildGraphQLSchema(`
type Post {
  postID: ID
  content: String!
  author: Author!
  genre: Genre
}
type Author {
  id: ID
  name: String! @id @search(by: [regexp])
  pen_name: String
  posts: [Post]
}
type Genre {
  name: String! @id @search(by: [exact])
}`);
  const q = fields(schema.getQueryType());

  it("makes get arguments optional when a type has two identifiers, required with one", () => {
    expect(q.getAuthor).toBe("(id: ID, name: String)Author");
    expect(q.getPost).toBe("(postID: ID!)Post");
    expect(q.getGenre).toBe("(name: String!)Genre");
  });

  it("offers upsert only for types with an @id", () => {
    const m = fields(schema.getMutationType());
    expect(m.addAuthor).toBe("(input: [AddAuthorInput!]!, upsert: Boolean)AddAuthorPayload");
    expect(m.addPost).toBe("(input: [AddPostInput!]!)AddPostPayload");
  });

  it("adds hash to an @id String searched by regexp, and merges the filters", () => {
    expect(fields(schema.getType("AuthorFilter")).name).toBe("StringHashFilter_StringRegExpFilter");
    expect(fields(schema.getType("StringHashFilter_StringRegExpFilter"))).toEqual({
      eq: "String",
      in: "[String]",
      regexp: "String",
    });
    expect(fields(schema.getType("GenreFilter")).name).toBe("StringExactFilter");
    expect(fields(schema.getType("GenreFilter")).id).toBeUndefined();
  });

  it("makes the only identifier of a Ref non-null, and edges Refs", () => {
    expect(fields(schema.getType("GenreRef"))).toEqual({ name: "String!" });
    expect(fields(schema.getType("AddPostInput"))).toEqual({
      content: "String!",
      author: "AuthorRef!",
      genre: "GenreRef",
    });
  });

  it("adds filter, order and pagination to edges, and an Aggregate field per list of objects", () => {
    const author = fields(schema.getType("Author"));
    expect(author.posts).toBe("(filter: PostFilter, order: PostOrder, first: Int, offset: Int)[Post]");
    expect(author.postsAggregate).toBe("(filter: PostFilter)PostAggregateResult");
    expect(fields(schema.getType("Post")).author).toBe("(filter: AuthorFilter)Author!");
    expect(generatedSchema).toContain(
      "\tposts(filter: PostFilter, order: PostOrder, first: Int, offset: Int): [Post]\n",
    );
  });

  it("indexes @id predicates by hash (or their search) with @upsert", () => {
    expect(dqlSchema).toContain("<Author.name>: string @index(hash, trigram) @upsert .");
    expect(dqlSchema).toContain("<Genre.name>: string @index(exact) @upsert .");
    expect(dqlSchema).toContain("<Author.posts>: [uid] .");
    expect(dqlSchema).toContain("<Post.author>: uid .");
  });

  it("prints Dgraph's sections in order", () => {
    const titles = [...generatedSchema.matchAll(/^# (.+)$/gm)].map((x) => x[1]);
    expect(titles).toEqual([
      "Input Schema",
      "Extended Definitions",
      "Generated Types",
      "Generated Enums",
      "Generated Inputs",
      "Generated Query",
      "Generated Mutations",
    ]);
  });
});

describe("generated API: searches, enums, interfaces and unions", () => {
  it("names a merged filter by its arguments in sorted order", () => {
    const { schema } = buildGraphQLSchema(
      "type T { id: ID!  text: String @search(by: [term, fulltext, trigram, hash]) }",
    );
    const name = "StringFullTextFilter_StringHashFilter_StringTermFilter_StringRegExpFilter";
    expect(fields(schema.getType("TFilter")).text).toBe(name);
    expect(Object.keys(fields(schema.getType(name)))).toEqual([
      "alloftext",
      "anyoftext",
      "eq",
      "in",
      "allofterms",
      "anyofterms",
      "regexp",
    ]);
  });

  it("uses the per-type default searches", () => {
    const { schema, dqlSchema } = buildGraphQLSchema(`
enum Tag { NEW OLD }
type T { id: ID!  n: Int @search  s: String @search  d: DateTime @search  b: Boolean @search  tag: Tag @search  tags: [Tag] }`);
    expect(fields(schema.getType("TFilter"))).toMatchObject({
      n: "IntFilter",
      s: "StringTermFilter",
      d: "DateTimeFilter",
      b: "Boolean",
      tag: "Tag_hash",
    });
    expect(fields(schema.getType("Tag_hash"))).toEqual({ eq: "Tag", in: "[Tag]" });
    expect(dqlSchema).toContain("<T.d>: datetime @index(year) .");
    expect(dqlSchema).toContain("<T.tags>: [string] @index(hash) .");
  });

  it("gives interfaces get, query, aggregate, update and delete, but no add; Refs of ids only", () => {
    const { schema, dqlSchema } = buildGraphQLSchema(`
interface Character { id: ID!  name: String! @search(by: [exact]) }
type Human implements Character { totalCredits: Float }
type Droid implements Character { primaryFunction: String }`);
    const q = fields(schema.getQueryType());
    const m = fields(schema.getMutationType());
    expect(Object.keys(q)).toContain("queryCharacter");
    expect(m.addCharacter).toBeUndefined();
    expect(m.updateCharacter).toBe("(input: UpdateCharacterInput!)UpdateCharacterPayload");
    expect(fields(schema.getType("CharacterRef"))).toEqual({ id: "ID!" });
    expect(fields(schema.getType("AddHumanInput"))).toEqual({ name: "String!", totalCredits: "Float" });
    expect(fields(schema.getType("HumanFilter")).name).toBe("StringExactFilter");
    expect(dqlSchema).toContain("type <Human> {\n\t<Character.name>\n\t<Human.totalCredits>\n}");
    expect(dqlSchema.match(/<Character\.name>: /g)).toHaveLength(1);
  });

  it("gives unions a Filter with member types, a Ref and a Type enum", () => {
    const { schema } = buildGraphQLSchema(`
type Dog { id: ID!  name: String }
type Cat { id: ID!  lives: Int }
union Pet = Dog | Cat
type Owner { id: ID!  pets: [Pet]  best: Pet }`);
    expect(values(schema.getType("PetType"))).toEqual(["Dog", "Cat"]);
    expect(fields(schema.getType("PetFilter"))).toEqual({
      memberTypes: "[PetType!]",
      dogFilter: "DogFilter",
      catFilter: "CatFilter",
    });
    expect(fields(schema.getType("PetRef"))).toEqual({ dogRef: "DogRef", catRef: "CatRef" });
    expect(fields(schema.getType("Owner")).pets).toBe("(filter: PetFilter, first: Int, offset: Int)[Pet]");
    expect(fields(schema.getType("Owner")).petsAggregate).toBeUndefined();
  });

  it("turns operations off with @generate", () => {
    const { schema } = buildGraphQLSchema(`
type T @generate(query: {get: false, aggregate: false}, mutation: {delete: false}) { id: ID!  n: Int }`);
    expect(Object.keys(fields(schema.getQueryType()))).toEqual(["queryT"]);
    expect(Object.keys(fields(schema.getMutationType()))).toEqual(["addT", "updateT"]);
  });

  it("drops inputs left empty, with their mutations (cleanSchema)", () => {
    const { schema } = buildGraphQLSchema(`
type Author { id: ID!  name: String  posts: [Post] @dgraph(pred: "~Post.author") }
type Post { id: ID!  author: Author @dgraph(pred: "Post.author") }
type Tagless { id: ID!  refs: [Author] @dgraph(pred: "~other") }`);
    const m = fields(schema.getMutationType());
    expect(m.addTagless).toBeUndefined();
    expect(m.updateTagless).toBeUndefined();
    expect(m.deleteTagless).toBe("(filter: TaglessFilter!)DeleteTaglessPayload");
    expect(fields(schema.getType("AddAuthorInput"))).toEqual({ name: "String" });
  });

  it("marks the forward predicate of a ~ field @reverse", () => {
    const { dqlSchema } = buildGraphQLSchema(`
type Author { id: ID!  name: String  posts: [Post] @dgraph(pred: "~Post.author") }
type Post { id: ID!  title: String  author: Author @dgraph(pred: "Post.author") }`);
    expect(dqlSchema).toContain("<Post.author>: uid @reverse .");
  });

  it("adds @secret's password field to inputs and a check query", () => {
    const { schema, dqlSchema } = buildGraphQLSchema('type User @secret(field: "pwd") { name: String! @id }');
    expect(fields(schema.getType("AddUserInput"))).toEqual({ name: "String!", pwd: "String!" });
    expect(fields(schema.getQueryType()).checkUserPassword).toBe("(name: String!, pwd: String!)User");
    expect(dqlSchema).toContain("<User.pwd>: password .");
  });
});
