import { describe, expect, it } from "vitest";
import {
  decodeOperationJson,
  operationFromBody,
  validateOperation,
} from "../../src/server/alter-operation.ts";
import { parseMediaType } from "../../src/server/body.ts";
import { errorBody, htmlSafe, latencyJson, txnJson } from "../../src/server/envelope.ts";
import { dgraphJsonErrorText, type GoJsonError, parseGoJson } from "../../src/server/go-json.ts";
import { parseGoDuration, RequestParams } from "../../src/server/request-params.ts";
import { decodeMutateJson } from "../../src/server/routes/mutate.ts";

function jsonError(text: string): string {
  try {
    parseGoJson(text);
  } catch (e) {
    return dgraphJsonErrorText(text, e as GoJsonError);
  }
  throw new Error(`no error for ${text}`);
}

// Dgraph's line/character walk stops one rune past Go's offset (which already counts the bad byte), so at
// the end of the input it reports the input length, and before a newline it reports the next line.
describe("Go JSON syntax errors", () => {
  it.each([
    ['{"a" 1}', "Error parsing JSON at line 1, character 7: invalid character '1' after object key\n"],
    ["", "Error parsing JSON at line 1, character 0: unexpected end of JSON input\n"],
    [
      '{"set": [}',
      "Error parsing JSON at line 1, character 10: invalid character '}' looking for beginning of value\n",
    ],
    [
      "[1,]",
      "Error parsing JSON at line 1, character 4: invalid character ']' looking for beginning of value\n",
    ],
    [
      '{"a":1,}',
      "Error parsing JSON at line 1, character 8: invalid character '}' looking for beginning of object key string\n",
    ],
    [
      '{"a":1 "b"}',
      "Error parsing JSON at line 1, character 9: invalid character '\"' after object key:value pair\n",
    ],
    ["[1 2]", "Error parsing JSON at line 1, character 5: invalid character '2' after array element\n"],
    [
      "tx",
      "Error parsing JSON at line 1, character 2: invalid character 'x' in literal true (expecting 'r')\n",
    ],
    ["01", "Error parsing JSON at line 1, character 2: invalid character '1' after top-level value\n"],
    ['"\\q"', "Error parsing JSON at line 1, character 4: invalid character 'q' in string escape code\n"],
    ["-x", "Error parsing JSON at line 1, character 2: invalid character 'x' in numeric literal\n"],
    [
      "1.e",
      "Error parsing JSON at line 1, character 3: invalid character 'e' after decimal point in numeric literal\n",
    ],
    [
      '{\n  "a": x\n}',
      "Error parsing JSON at line 3, character 1: invalid character 'x' looking for beginning of value\n",
    ],
    ["nul", "Error parsing JSON at line 1, character 3: unexpected end of JSON input\n"],
  ])("%j", (input, expected) => {
    expect(jsonError(input)).toBe(expected);
  });

  it("names control characters the way Go quotes them", () => {
    expect(jsonError('"a\nb"')).toContain("invalid character '\\n' in string literal");
  });

  it("parses valid documents with raw spans", () => {
    const text = ' {"set": [{"name": "x"}], "n": -1.5e3, "b": true, "z": null} ';
    const value = parseGoJson(text);
    expect(value.kind).toBe("object");
    if (value.kind !== "object") return;
    const [key, set] = value.entries[0];
    expect(key).toBe("set");
    expect(text.slice(set.start, set.end)).toBe('[{"name": "x"}]');
  });
});

describe("Go JSON nesting", () => {
  const nested = (n: number, open: string, close: string) => `${open.repeat(n)}1${close.repeat(n)}`;

  it("parses nesting up to Go's limit (10,000) without overflowing the call stack", () => {
    for (const [open, close] of [
      ["[", "]"],
      ['{"a":', "}"],
    ]) {
      let value = parseGoJson(nested(10_000, open, close));
      let depth = 0;
      while (value.kind === "array" || value.kind === "object") {
        depth++;
        value = value.kind === "array" ? value.items[0] : value.entries[0][1];
      }
      expect(depth).toBe(10_000);
      expect(value).toMatchObject({ kind: "number", text: "1" });
    }
  });

  it("rejects the 10,001st level at its bracket, and reports an earlier syntax error first", () => {
    expect(jsonError(nested(10_001, "[", "]"))).toBe(
      "Error parsing JSON at line 1, character 10002: invalid character '[' exceeded max depth\n",
    );
    expect(jsonError(`[x,${nested(10_001, "[", "]")}]`)).toContain(
      "invalid character 'x' looking for beginning",
    );
  });
});

describe("Go query-string parsing", () => {
  it("parses Go durations", () => {
    expect(parseGoDuration("600s")).toBe(600e9);
    expect(parseGoDuration("1m30s")).toBe(90e9);
    expect(parseGoDuration("1.5h")).toBe(5400e9);
    expect(parseGoDuration("500ms")).toBe(500e6);
    expect(parseGoDuration("0")).toBe(0);
    expect(parseGoDuration("-2us")).toBe(-2000);
    expect(() => parseGoDuration("10")).toThrow('time: missing unit in duration "10"');
    expect(() => parseGoDuration("10x")).toThrow('time: unknown unit "x" in duration "10x"');
    expect(() => parseGoDuration("abc")).toThrow('time: invalid duration "abc"');
  });

  it("wraps errors with the parameter name, as Dgraph does", () => {
    const params = RequestParams.fromUrl("/query?debug=maybe&startTs=x&timeout=5&ro=&be=1");
    expect(() => params.bool("debug")).toThrow(
      'while parsing debug as bool: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(() => params.uint64("startTs")).toThrow(
      'while parsing startTs as uint64: strconv.ParseUint: parsing "x": invalid syntax',
    );
    expect(() => params.durationMs("timeout")).toThrow(
      'while parsing timeout as time.Duration: time: missing unit in duration "5"',
    );
    expect(params.bool("ro")).toBe(false);
    expect(params.bool("be")).toBe(true);
    expect(params.uint64("missing")).toBe(0);
  });

  it("parses uint64 parameters with base auto-detection and quotes control characters as \\xXX", () => {
    const params = RequestParams.fromUrl("/query?a=0x2a&b=1_000&c=18446744073709551616&d=%01");
    expect(params.uint64("a")).toBe(42);
    expect(params.uint64("b")).toBe(1000);
    expect(() => params.uint64("c")).toThrow(
      'while parsing c as uint64: strconv.ParseUint: parsing "18446744073709551616": value out of range',
    );
    expect(() => params.uint64("d")).toThrow('strconv.ParseUint: parsing "\\x01": invalid syntax');
  });
});

describe("media types", () => {
  it("parses type and parameters", () => {
    expect(parseMediaType("Application/JSON; charset=UTF-8")).toEqual({
      type: "application/json",
      params: { charset: "UTF-8" },
    });
    expect(parseMediaType('application/dql; charset="utf-8"').params.charset).toBe("utf-8");
    expect(parseMediaType(undefined).type).toBe("");
    expect(() => parseMediaType("nonsense")).toThrow("Invalid Content-Type");
  });
});

describe("envelopes", () => {
  it("renders both error forms", () => {
    expect(errorBody("boom", "ErrorInvalidRequest", false)).toBe(
      '{"errors":[{"message":"boom","extensions":{"code":"ErrorInvalidRequest"}}]}',
    );
    expect(errorBody("boom", "Error", true)).toBe(
      '{"errors":[{"message":"boom","extensions":{"code":"Error"}}],"data":null}',
    );
  });

  it("escapes HTML-sensitive characters like Go", () => {
    expect(htmlSafe('{"a":"<b>&\u2028"}')).toBe('{"a":"\\u003cb\\u003e\\u0026\\u2028"}');
  });

  it("omits zero latency and txn fields", () => {
    expect(
      latencyJson({ parsing_ns: 5, processing_ns: 0, encoding_ns: 7, assign_timestamp_ns: 0, total_ns: 12 }),
    ).toEqual({ parsing_ns: 5, encoding_ns: 7, total_ns: 12 });
    expect(JSON.stringify(txnJson({ start_ts: 3, keys: [], preds: ["1-0-name"], commit_ts: 0 }))).toBe(
      '{"start_ts":3,"preds":["1-0-name"]}',
    );
  });
});

describe("alter operations", () => {
  it("decodes protojson with proto and lowerCamel names, enum names and numbers", () => {
    expect(decodeOperationJson('{"drop_all": true}')).toEqual({ dropAll: true });
    expect(decodeOperationJson('{"dropAttr": "name"}')).toEqual({ dropAttr: "name" });
    expect(decodeOperationJson('{"drop_op": "TYPE", "drop_value": "Film"}')).toEqual({
      dropOp: "TYPE",
      dropValue: "Film",
    });
    expect(decodeOperationJson('{"dropOp": 2}')).toEqual({ dropOp: "DATA" });
    expect(decodeOperationJson('{"schema": "name: string ."}')).toEqual({ schema: "name: string ." });
  });

  it("treats anything else as schema text", () => {
    expect(operationFromBody('{"dropall": true}')).toEqual({ schema: '{"dropall": true}' });
    expect(operationFromBody("name: string @index(exact) .")).toEqual({
      schema: "name: string @index(exact) .",
    });
    expect(operationFromBody('{"drop_op": "EVERYTHING"}')).toEqual({ schema: '{"drop_op": "EVERYTHING"}' });
  });

  it("validates like Dgraph", () => {
    expect(() => validateOperation({})).toThrow("Operation must have at least one field set");
    expect(() => validateOperation({ dropAll: true, dropOp: "DATA" })).toThrow(
      "Only one of DropAll and DropData can be true",
    );
    expect(() => validateOperation({ dropOp: "DATA", dropValue: "x" })).toThrow(
      "If DropOp is set to DATA, DropValue must be empty",
    );
    expect(() => validateOperation({ dropOp: "ATTR" })).toThrow(
      "If DropOp is set to ATTR, DropValue must not be empty",
    );
    expect(() => validateOperation({ dropOp: "TYPE" })).toThrow(
      "If DropOp is set to TYPE, DropValue must not be empty",
    );
    expect(() => validateOperation({ dropOp: "DATA" })).not.toThrow();
  });
});

describe("JSON mutation bodies", () => {
  it("finds set/delete raw text, cond, query and mutations", () => {
    const body = ` {
      "query" : "{ v as var(func: eq(e, \\"x\\")) }",
      "set": [ {"name": "a \\" } b", "n": 1.0, "nested": {"x": [1, {"y": "]"}]}} ],
      "cond":"@if(eq(len(v), 0))",
      "delete" : null,
      "mutations": [ null, {"delete": {"uid": "0x1"}}, {"cond": "@if(true)"}, {"set": "s", "set": {"k": 2}} ],
      "ignored": {"set": 1}
    } `;
    expect(decodeMutateJson(body)).toEqual({
      query: '{ v as var(func: eq(e, "x")) }',
      mutations: [
        {
          setJson: '[ {"name": "a \\" } b", "n": 1.0, "nested": {"x": [1, {"y": "]"}]}} ]',
          cond: "@if(eq(len(v), 0))",
        },
        { deleteJson: '{"uid": "0x1"}' },
        { setJson: '{"k": 2}' },
      ],
    });
    expect(decodeMutateJson("null")).toEqual({ mutations: [] });
    expect(decodeMutateJson('{"set":{"a":1}}')).toEqual({ mutations: [{ setJson: '{"a":1}' }] });
  });

  it("reports Go's errors for bodies of the wrong shape", () => {
    expect(() => decodeMutateJson("[1]")).toThrow(
      "json: cannot unmarshal array into Go value of type map[string]*alpha.skipJSONUnmarshal",
    );
    expect(() => decodeMutateJson('{"mutations": {"set": {}}}')).toThrow(
      "json: cannot unmarshal object into Go value of type []map[string]*alpha.skipJSONUnmarshal",
    );
    expect(() => decodeMutateJson('{"query": 5}')).toThrow("invalid syntax");
  });
});
