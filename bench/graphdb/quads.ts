/**
 * A compact in-memory quad set shared by both datasets and both loaders (Trellis and PostgreSQL).
 * Nodes are dense indexes 0..nodeCount-1; objects are a node index (≥ 0) or a literal (-(i + 1)).
 */

export class QuadSet {
  readonly preds: string[] = [];
  private readonly predIds = new Map<string, number>();
  readonly s: number[] = [];
  readonly p: number[] = [];
  readonly o: number[] = [];
  readonly litValue: string[] = [];
  readonly litLang: string[] = [];
  nodeCount = 0;

  get length(): number {
    return this.s.length;
  }

  newNode(): number {
    return this.nodeCount++;
  }

  predId(pred: string): number {
    let id = this.predIds.get(pred);
    if (id === undefined) {
      id = this.preds.length;
      this.preds.push(pred);
      this.predIds.set(pred, id);
    }
    return id;
  }

  edge(s: number, pred: string, o: number): void {
    this.s.push(s);
    this.p.push(this.predId(pred));
    this.o.push(o);
  }

  value(s: number, pred: string, value: string, lang = ""): void {
    this.s.push(s);
    this.p.push(this.predId(pred));
    this.o.push(-(this.litValue.length + 1));
    this.litValue.push(value);
    this.litLang.push(lang);
  }

  /** A new set with the quads `keep` accepts; node indexes and predicate ids stay the same. */
  subset(keep: (i: number) => boolean): QuadSet {
    const out = new QuadSet();
    for (const pred of this.preds) out.predId(pred);
    out.nodeCount = this.nodeCount;
    for (let i = 0; i < this.length; i++) {
      if (!keep(i)) continue;
      const o = this.o[i];
      if (o >= 0) out.edge(this.s[i], this.preds[this.p[i]], o);
      else out.value(this.s[i], this.preds[this.p[i]], this.litValue[-o - 1], this.litLang[-o - 1]);
    }
    return out;
  }

  /** Per-predicate quad counts, for the dataset summary. */
  predicateCounts(): Record<string, number> {
    const counts = new Array<number>(this.preds.length).fill(0);
    for (const id of this.p) counts[id]++;
    const out: Record<string, number> = {};
    this.preds.forEach((pred, i) => {
      if (counts[i] > 0) out[pred] = counts[i];
    });
    return out;
  }
}

const ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** A literal as N-Quad text: `"v"` or `"v"@lang`. */
export function nquadLiteral(value: string, lang: string): string {
  const body = /["\\\n\r\t]/.test(value) ? value.replace(/["\\\n\r\t]/g, (c) => ESCAPES[c]) : value;
  return lang ? `"${body}"@${lang}` : `"${body}"`;
}

/** An IRI in a DQL query or schema: bare when it is a plain identifier, else in angle brackets. */
export function dqlPred(pred: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(pred) ? pred : `<${pred}>`;
}

/**
 * A reverse edge in a DQL query: `~name`, or `<~iri>` for IRIs (`~<iri>` lexes as a name `~` followed by a
 * separate `<iri>` field, as in Dgraph's lexer).
 */
export function dqlReverse(pred: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(pred) ? `~${pred}` : `<~${pred}>`;
}

/** Nodes that occur in at least one quad. */
export function usedNodeCount(q: QuadSet): number {
  const seen = new Uint8Array(q.nodeCount);
  let n = 0;
  const mark = (x: number) => {
    if (seen[x] === 0) {
      seen[x] = 1;
      n++;
    }
  };
  for (let i = 0; i < q.length; i++) {
    mark(q.s[i]);
    if (q.o[i] >= 0) mark(q.o[i]);
  }
  return n;
}

/** The dataset as N-Quad text chunks with `_:n<index>` labels, for the bulk loader. */
export function* nquadChunks(q: QuadSet): Generator<string> {
  const predTok = q.preds.map((p) => `<${p}>`);
  const lines: string[] = [];
  for (let i = 0; i < q.length; i++) {
    const o = q.o[i];
    const obj = o >= 0 ? `_:n${o}` : nquadLiteral(q.litValue[-o - 1], q.litLang[-o - 1]);
    lines.push(`_:n${q.s[i]} ${predTok[q.p[i]]} ${obj} .`);
    if (lines.length === 50_000) {
      yield `${lines.join("\n")}\n`;
      lines.length = 0;
    }
  }
  if (lines.length > 0) yield lines.join("\n");
}
