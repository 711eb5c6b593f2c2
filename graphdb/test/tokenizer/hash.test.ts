import { describe, expect, it } from "vitest";
import { exactTokenizer } from "../../src/tokenizer/exact.ts";
import { hashTokenizer, sha256Tokenizer } from "../../src/tokenizer/hash.ts";
import { tokenHex } from "../../src/tokenizer/token-bytes.ts";

function hashHex(value: string): string {
  const tokens = hashTokenizer.tokens({ type: "string", value });
  expect(tokens).toHaveLength(1);
  return tokenHex(tokens[0]);
}

describe("hash tokenizer", () => {
  it("is FNV-1a 64 of the UTF-8 bytes (published test vectors), after the id 0x0B", () => {
    expect(hashHex("")).toBe("0bcbf29ce484222325");
    expect(hashHex("a")).toBe("0baf63dc4c8601ec8c");
    expect(hashHex("foobar")).toBe("0b85944171f73967e8");
  });

  it("hashes non-ASCII text by its UTF-8 encoding", () => {
    // FNV-1a 64 of bytes c3 a9 ("é") and f0 9f 98 80 ("😀")
    expect(hashHex("é")).toBe("0b0ac21707b7181e01");
    expect(hashHex("😀")).toBe("0bfeff073875020288");
  });

  it("is case-sensitive and whole-string", () => {
    expect(hashHex("Alice")).not.toBe(hashHex("alice"));
    expect(hashHex("Alice Smith")).not.toBe(hashHex("Alice"));
  });
});

describe("sha256 tokenizer", () => {
  it("indexes the first 64 characters and skips shorter values", () => {
    const hex = "a".repeat(64);
    const tokens = sha256Tokenizer.tokens({ type: "string", value: `${hex}{ query }` });
    expect(tokens).toHaveLength(1);
    expect(tokens[0][0]).toBe(0x0c);
    expect(new TextDecoder().decode(tokens[0].subarray(1))).toBe(hex);
    expect(sha256Tokenizer.tokens({ type: "string", value: "short" })).toEqual([]);
  });
});

describe("exact tokenizer", () => {
  it("is the id followed by the string's UTF-8 bytes", () => {
    expect([...exactTokenizer.tokens({ type: "string", value: "hé" })[0]]).toEqual([0x02, 0x68, 0xc3, 0xa9]);
  });
});
