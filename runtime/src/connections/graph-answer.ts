/**
 * The parts of a Dgraph `api.Response` a function uses — the answer's JSON bytes (field 1) and the uids of
 * new blank nodes (field 12, `map<string, string>`) — read straight from the wire. google-protobuf's
 * decoder builds a lazy map of every entry and copies the JSON, which for a 50,000-node mutation held the
 * platform's thread for over 100 ms; this reads the same bytes in a few.
 */
export interface GraphAnswer {
  /** The `json` field, a view of the received bytes (empty when absent). */
  json: Uint8Array;
  /** Blank-node label → uid (`0x…`), as the response's `uids` map holds them. */
  uids: Record<string, string>;
}

const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder();

export function decodeGraphAnswer(bytes: Uint8Array): GraphAnswer {
  const r = new WireReader(bytes);
  let json: Uint8Array = EMPTY;
  const uids: Record<string, string> = {};
  while (r.more()) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    if (field === 1 && tag % 8 === 2) json = r.bytes();
    else if (field === 12 && tag % 8 === 2) {
      const entry = new WireReader(r.bytes());
      let key = "";
      let value = "";
      while (entry.more()) {
        const t = entry.varint();
        if (t === 0x0a) key = entry.string();
        else if (t === 0x12) value = entry.string();
        else entry.skip(t % 8);
      }
      // A label named `__proto__` is an own property like any other.
      Object.defineProperty(uids, key, { value, enumerable: true, writable: true, configurable: true });
    } else r.skip(tag % 8);
  }
  return { json, uids };
}

/** Reads protobuf wire format; throws on a truncated or malformed message. */
class WireReader {
  private pos = 0;

  constructor(private readonly buf: Uint8Array) {}

  more(): boolean {
    return this.pos < this.buf.length;
  }

  /** An unsigned varint, exact up to 2^53. */
  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.buf.length) throw malformed();
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    throw malformed();
  }

  bytes(): Uint8Array {
    const n = this.varint();
    const end = this.pos + n;
    if (end > this.buf.length) throw malformed();
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  /** A string field: short ASCII ones (uids, most labels) without a native call. */
  string(): string {
    const b = this.bytes();
    if (b.length <= 64) {
      let s = "";
      for (let i = 0; i < b.length; i++) {
        if (b[i] >= 0x80) return decoder.decode(b);
        s += String.fromCharCode(b[i]);
      }
      return s;
    }
    return decoder.decode(b);
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.advance(8);
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.advance(4);
    else throw malformed();
  }

  private advance(n: number): void {
    if (this.pos + n > this.buf.length) throw malformed();
    this.pos += n;
  }
}

function malformed(): Error {
  return new Error("the graph database's answer is not a well-formed api.Response");
}
