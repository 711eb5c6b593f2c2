import { describe, expect, it } from "vitest";
import { DgraphError } from "../../src/core/errors.ts";
import { checkPassword, hashPassword } from "../../src/types/password.ts";

describe("passwords", () => {
  it("stores scrypt$<salt>$<hash> and verifies the right password only", () => {
    const stored = hashPassword("password");
    expect(stored).toMatch(/^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(checkPassword(stored, "password")).toBe(true);
    expect(checkPassword(stored, "Password")).toBe(false);
    expect(checkPassword(stored, "")).toBe(false);
  });

  it("salts every hash", () => {
    expect(hashPassword("password")).not.toBe(hashPassword("password"));
  });

  it("requires at least 6 characters, with Dgraph's message", () => {
    expect(() => hashPassword("12345")).toThrow(DgraphError);
    expect(() => hashPassword("12345")).toThrow("Password too short, i.e. should have at least 6 chars");
    expect(checkPassword(hashPassword("123456"), "123456")).toBe(true);
  });

  it("never matches a malformed stored value", () => {
    expect(checkPassword("plain-text", "plain-text")).toBe(false);
    expect(checkPassword("scrypt$$", "x")).toBe(false);
    expect(checkPassword("scrypt$AAAA$AAAA", "x")).toBe(false);
  });
});
