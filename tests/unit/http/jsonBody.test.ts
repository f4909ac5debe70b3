import fc from "fast-check";
import { ValidationError } from "../../../lib/errors";
import type { HttpEvent } from "../../../lib/http/event";
import { jsonDepth, MAX_JSON_DEPTH, parseJsonBody } from "../../../lib/http/middleware/jsonBody";

const event = (body: string | undefined, contentType = "application/json", isBase64Encoded = false) =>
  ({ headers: { "content-type": contentType }, body, isBase64Encoded }) as unknown as HttpEvent;

describe("parseJsonBody", () => {
  it("parses JSON bodies of any +json type and any case", async () => {
    await expect(parseJsonBody(event('{"a":1}'), "required")).resolves.toEqual({ a: 1 });
    await expect(parseJsonBody(event("[1]", "Application/JSON; charset=utf-8"), "required")).resolves.toEqual([1]);
    await expect(parseJsonBody(event('{"a":1}', "application/vnd.api+json"), "required")).resolves.toEqual({ a: 1 });
  });

  it("decodes base64 bodies", async () => {
    await expect(parseJsonBody(event(Buffer.from('{"a":2}').toString("base64"), "application/json", true), "required")).resolves.toEqual({
      a: 2,
    });
  });

  it.each([
    ["text/plain", '{"a":1}', "Content-Type must be application/json"],
    ["application/x-www-form-urlencoded", "a=1", "Content-Type must be application/json"],
    ["application/json", "{", "Error parsing JSON:"],
    ["application/json", "{'a':1}", "Error parsing JSON:"],
    ["application/json", '{"a":1} x', "Error parsing JSON:"],
    ["application/json", '{"__proto__":{"x":1}}', "forbidden key __proto__"],
  ])("refuses content type %p with body %p", async (type, body, message) => {
    await expect(parseJsonBody(event(body, type), "required")).rejects.toThrow(message);
  });

  it("refuses a missing body when required and allows it when optional", async () => {
    await expect(parseJsonBody(event(undefined), "required")).rejects.toThrow(ValidationError);
    await expect(parseJsonBody(event(""), "required")).rejects.toThrow(ValidationError);
    await expect(parseJsonBody(event(undefined, "text/plain"), "optional")).resolves.toBeUndefined();
  });

  it("refuses bodies nested deeper than the limit", async () => {
    const deep = "[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1);
    await expect(parseJsonBody(event(deep), "required")).rejects.toThrow("nested deeper");
    const fine = "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH);
    await expect(parseJsonBody(event(fine), "required")).resolves.toBeDefined();
    const veryDeep = "[".repeat(100_000) + "]".repeat(100_000);
    await expect(parseJsonBody(event(veryDeep), "required")).rejects.toThrow(ValidationError);
  });

  it("either parses or throws a ValidationError, for any text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json()), fc.constantFrom("application/json", "text/plain", ""), async (body, type) => {
        try {
          await parseJsonBody(event(body, type), "required");
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
      }),
    );
  });
});

describe("jsonDepth", () => {
  it("measures nesting", () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [{ b: 1 }] })).toBe(3);
  });
});
