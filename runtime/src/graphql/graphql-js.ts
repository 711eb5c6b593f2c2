/**
 * graphql-js, pinned to its CommonJS entry. graphql 16 ships both `index.js` and `index.mjs` without an
 * `exports` map: Node (and so graphql-yoga) loads `index.js`, while Vite/Vitest resolve a bare `graphql`
 * to `index.mjs`. Two instances break `instanceof` checks ("Cannot use GraphQLSchema from another module
 * or realm"), so this package imports graphql only through here.
 */
export {
  buildSchema,
  type DocumentNode,
  GraphQLError,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  GraphQLScalarType,
  type GraphQLSchema,
  Kind,
  parse,
  responsePathAsArray,
  Source,
  type ValueNode,
  validate,
} from "graphql/index.js";
