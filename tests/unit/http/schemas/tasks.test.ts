import fc from "fast-check";
import { NewTaskBody, TaskIdParams, TaskPatchBody } from "../../../../lib/http/schemas/validators.generated";
import { DESCRIPTION_MAX, TITLE_MAX } from "../../../../lib/http/tasks/schemas";
import { check, fits } from "../../../../lib/http/validation";
import { onlyPatchable } from "../../../../lib/tasks/task";
import { verdict } from "../../../support/schemaVerdict";

const TEXTS = [
  "Body must be a JSON object",
  "title is required and must be a string",
  "title must be a string",
  "description must be a string",
  "done must be a boolean",
  `title must be at most ${TITLE_MAX} characters`,
  `description must be at most ${DESCRIPTION_MAX} characters`,
];

describe("the POST /tasks body schema", () => {
  it("takes title and description and lets unknown fields through for the domain to ignore", () => {
    expect(check(NewTaskBody, { title: "Buy", description: "Milk", done: true, id: 7 })).toMatchObject({
      title: "Buy",
      description: "Milk",
    });
    expect(check(NewTaskBody, { title: "" })).toEqual({ title: "" });
  });

  it.each([
    ["a missing title", {}, "title is required and must be a string"],
    ["a missing title with a bad description", { description: 5 }, "title is required and must be a string"],
    ["a numeric title", { title: 123 }, "title is required and must be a string"],
    ["a null title", { title: null }, "title is required and must be a string"],
    ["an object title", { title: { text: "x" } }, "title is required and must be a string"],
    ["a non-string description", { title: "t", description: 5 }, "description must be a string"],
    ["a null description", { title: "t", description: null }, "description must be a string"],
    ["an array body", ["title"], "Body must be a JSON object"],
    ["a string body", "title", "Body must be a JSON object"],
    ["a number body", 5, "Body must be a JSON object"],
    ["true", true, "Body must be a JSON object"],
    ["null", null, "Body must be a JSON object"],
    ["a title over the bound", { title: "x".repeat(TITLE_MAX + 1) }, `title must be at most ${TITLE_MAX} characters`],
    [
      "a description over the bound",
      { title: "t", description: "x".repeat(DESCRIPTION_MAX + 1) },
      `description must be at most ${DESCRIPTION_MAX} characters`,
    ],
  ])("rejects %s with the contract's text", (_label, body, text) => {
    expect(verdict(NewTaskBody, body)).toBe(text);
  });

  it("accepts exactly the objects with a bounded string title and optional bounded string description", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const fields = body as Record<string, unknown>;
        const valid =
          typeof body === "object" &&
          body !== null &&
          !Array.isArray(body) &&
          typeof fields.title === "string" &&
          [...fields.title].length <= TITLE_MAX &&
          (!Object.hasOwn(fields, "description") || typeof fields.description === "string");
        const answer = verdict(NewTaskBody, body);
        if (valid) expect(answer).toBe("ok");
        else expect(TEXTS).toContain(answer);
      }),
    );
  });
});

describe("the PUT /tasks/{id} body schema", () => {
  it("accepts any subset, {} included, and the domain keeps only the known fields", () => {
    expect(onlyPatchable(check(TaskPatchBody, { done: true, foo: 1, id: 9 }))).toEqual({ done: true });
    expect(onlyPatchable(check(TaskPatchBody, { title: "a", description: "b" }))).toEqual({ title: "a", description: "b" });
    expect(onlyPatchable(check(TaskPatchBody, {}))).toEqual({});
  });

  it.each([["true"], [1], [0], [null]])("rejects done = %p (not a boolean)", (done) => {
    expect(verdict(TaskPatchBody, { done })).toBe("done must be a boolean");
  });

  it.each([[[1]], ["abc"], [5], [true], [null], [[]]])("rejects the non-object body %p", (body) => {
    expect(verdict(TaskPatchBody, body)).toBe("Body must be a JSON object");
  });

  it("never accepts a wrongly typed field, and names the field it refuses", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("title", "description", "done", "x"), fc.jsonValue()), (body) => {
        const ok =
          (!("title" in body) || typeof body.title === "string") &&
          (!("description" in body) || typeof body.description === "string") &&
          (!("done" in body) || typeof body.done === "boolean");
        const answer = verdict(TaskPatchBody, body);
        if (ok) expect(answer).toBe("ok");
        else expect(answer).toMatch(/^(title|description|done) must be/);
      }),
    );
  });
});

describe("the {id} path parameter", () => {
  it("fits decimal integers, leading zeros included", () => {
    expect(fits(TaskIdParams, { id: "1" })).toBe(true);
    expect(fits(TaskIdParams, { id: "03" })).toBe(true);
  });

  it.each(["abc", "-1", "1.0", "0x1", "+1", "1e3", " 1", "", "99999999999999999"])("does not fit %p (a 404)", (raw) => {
    expect(fits(TaskIdParams, { id: raw })).toBe(false);
  });

  it("fits a string iff it is 1 to 16 decimal digits", () => {
    fc.assert(fc.property(fc.string(), (raw) => expect(fits(TaskIdParams, { id: raw })).toBe(/^\d{1,16}$/.test(raw))));
  });
});
