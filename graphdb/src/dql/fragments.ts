/**
 * Fragments: `fragment f { name age }` definitions and `...f` spreads, expanded in place after
 * parsing (definitions may follow their use), with Dgraph's cycle and missing-fragment errors.
 */
import type { ParseContext } from "./parse-context.ts";
import { newRawNode, type RawNode } from "./raw-query.ts";
import { parseSelectionSet } from "./selection-parser.ts";
import { locationOf, plainError } from "./token-stream.ts";

interface FragmentDefinition {
  readonly name: string;
  readonly node: RawNode;
  entered: boolean;
  exited: boolean;
}

export class Fragments {
  private readonly definitions = new Map<string, FragmentDefinition>();

  get size(): number {
    return this.definitions.size;
  }

  /** Parses a definition after the `fragment` keyword (Dgraph's `getFragment`). */
  parseDefinition(ctx: ParseContext): void {
    const ts = ctx.ts;
    let name = "";
    let found = false;
    while (ts.next()) {
      const item = ts.item;
      if (item.kind === "Name") {
        if (name === "" && item.value.trim() !== "") name = item.value.trim();
        continue;
      }
      if (item.kind === "LeftCurl") {
        found = true;
        break;
      }
      throw ts.errorAt(item, `Unexpected item in fragment: ${item.kind} ${item.value}`);
    }
    if (name === "" || !found) throw ts.errorNext("Empty fragment name");
    const node = newRawNode("fragment", name, locationOf(ts.item));
    parseSelectionSet(ctx, node);
    this.definitions.set(name, { name, node, entered: false, exited: false });
  }

  /** Replaces every `...f` below `node` with the fragment's (expanded) fields. */
  expand(node: RawNode): void {
    if (!hasSpread(node)) return;
    const children: RawNode[] = [];
    for (const child of node.children) {
      if (child.kind === "fragment") {
        const def = this.definitions.get(child.attr);
        if (def === undefined) throw plainError(`Missing fragment: ${child.attr}`);
        this.expandDefinition(def);
        children.push(...def.node.children);
      } else {
        this.expand(child);
        children.push(child);
      }
    }
    node.children = children;
  }

  private expandDefinition(def: FragmentDefinition): void {
    if (def.exited) return;
    if (def.entered) throw plainError(`Cycle detected: ${def.name}`);
    def.entered = true;
    this.expand(def.node);
    def.exited = true;
  }
}

function hasSpread(node: RawNode): boolean {
  for (const child of node.children) {
    if (child.kind === "fragment" || hasSpread(child)) return true;
  }
  return false;
}
