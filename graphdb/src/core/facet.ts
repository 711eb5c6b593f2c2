/** A facet: a key-value pair on an edge (Dgraph facets), as parsed from a mutation and stored. */
export type FacetType = "string" | "int" | "float" | "bool" | "datetime";

export interface Facet {
  key: string;
  /** datetime facets hold the normalised RFC 3339 string. */
  value: string | number | boolean;
  type: FacetType;
}
