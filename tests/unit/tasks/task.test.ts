import fc from "fast-check";
import { parseNewTask, parseTaskId, parseTaskPatch } from "../../../lib/tasks/task";
import { NotFoundError, ValidationError } from "../../../lib/errors";

describe("parseNewTask", () => {
  it("takes title and description and ignores done, id and unknown fields", () => {
    expect(parseNewTask({ title: "Buy", description: "Milk", done: true, id: 7, uri: "x", extra: 1 })).toEqual({
      title: "Buy",
      description: "Milk",
    });
  });

  it("defaults description to the empty string", () => {
    expect(parseNewTask({ title: "" })).toEqual({ title: "", description: "" });
  });

  it.each([
    ["a missing title", {}],
    ["a numeric title", { title: 123 }],
    ["a null title", { title: null }],
    ["an object title", { title: { text: "x" } }],
    ["a non-string description", { title: "t", description: 5 }],
    ["a null description", { title: "t", description: null }],
    ["an array body", ["title"]],
    ["a string body", "title"],
    ["a number body", 5],
    ["true", true],
    ["null", null],
  ])("rejects %s", (_label, body) => {
    expect(() => parseNewTask(body)).toThrow(ValidationError);
  });

  it("accepts exactly the objects with a string title and optional string description", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const valid =
          typeof body === "object" && body !== null && !Array.isArray(body) &&
          typeof (body as any).title === "string" &&
          (!Object.hasOwn(body, "description") || typeof (body as any).description === "string");
        if (valid) expect(parseNewTask(body).title).toBe((body as any).title);
        else expect(() => parseNewTask(body)).toThrow(ValidationError);
      }),
    );
  });
});

describe("parseTaskPatch", () => {
  it("keeps only the supplied known fields", () => {
    expect(parseTaskPatch({ done: true, foo: 1, id: 9 })).toEqual({ done: true });
    expect(parseTaskPatch({ title: "a", description: "b" })).toEqual({ title: "a", description: "b" });
  });

  it("treats an object without known fields as a no-op", () => {
    expect(parseTaskPatch({})).toEqual({});
  });

  it.each([["true"], [1], [0], [null]])("rejects done = %p (not a boolean)", (done) => {
    expect(() => parseTaskPatch({ done })).toThrow(ValidationError);
  });

  it.each([[[1]], ["abc"], [5], [true], [null], [[]]])("rejects the non-object body %p", (body) => {
    expect(() => parseTaskPatch(body)).toThrow(ValidationError);
  });

  it("never accepts a wrongly typed field", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("title", "description", "done", "x"), fc.jsonValue()), (body) => {
        const ok =
          (!("title" in body) || typeof body.title === "string") &&
          (!("description" in body) || typeof body.description === "string") &&
          (!("done" in body) || typeof body.done === "boolean");
        if (ok) expect(() => parseTaskPatch(body)).not.toThrow();
        else expect(() => parseTaskPatch(body)).toThrow(ValidationError);
      }),
    );
  });
});

describe("parseTaskId", () => {
  it("reads decimal integers, leading zeros included", () => {
    expect(parseTaskId("1")).toBe(1);
    expect(parseTaskId("03")).toBe(3);
  });

  it.each(["abc", "-1", "1.0", "0x1", "+1", "1e3", " 1", "", "99999999999999999"])("treats %p as not found", (raw) => {
    expect(() => parseTaskId(raw)).toThrow(NotFoundError);
  });

  it("treats undefined as not found", () => {
    expect(() => parseTaskId(undefined)).toThrow(NotFoundError);
  });

  it("accepts a string iff it is a safe decimal integer", () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const valid = /^\d{1,16}$/.test(raw) && Number.isSafeInteger(Number(raw));
        if (valid) expect(parseTaskId(raw)).toBe(Number(raw));
        else expect(() => parseTaskId(raw)).toThrow(NotFoundError);
      }),
    );
  });
});
