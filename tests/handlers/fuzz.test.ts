import fc from "fast-check";
import provisioningDocument from "../../lib/http/openapi/provisioning.generated.json";
import tasksDocument from "../../lib/http/openapi/tasks.generated.json";
import { ROUTES } from "../../lib/http/routes";
import { api, freshContainer } from "../support/api";
import { operationsOf } from "../support/contract";
import { bodies, fill, HOSTILE, type Operation, PARAMETER_VALUES, type Schema, sample } from "../support/fuzzInputs";

jest.setTimeout(300_000);

/**
 * A schema-driven fuzz test: for every operation of both OpenAPI documents, requests made from
 * the document (valid ones, and deliberately invalid ones: wrong types, missing and unknown
 * fields, strings past their bounds, odd path parameters and queries, wrong content types) go
 * through the in-process router. `api()` checks each answer against the document (a declared
 * status, its content type, a body that fits); here, no answer may be a 5xx.
 */
const SERVICES = [
  { document: tasksDocument, prefix: "/todo/api/v1.0" },
  { document: provisioningDocument, prefix: "/api/1.1" },
];

describe("schema-driven fuzz, in process", () => {
  beforeAll(() => {
    process.env.DEMO_NODES = "on";
  });
  afterAll(() => {
    delete process.env.DEMO_NODES;
  });

  it("answers every generated request with a declared, non-5xx answer", async () => {
    let requests = 0;
    let operations = 0;
    const statuses = new Map<number, number>();
    const send = async (input: Parameters<typeof api>[0]) => {
      requests += 1;
      const answer = await api(input);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      expect({ request: `${input.method} ${input.path}`, status: answer.status < 500 }).toEqual({
        request: `${input.method} ${input.path}`,
        status: true,
      });
    };
    for (const { document, prefix } of SERVICES) {
      const schemas = document.components.schemas as Record<string, Schema>;
      for (const [template, methods] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
        for (const [method, operation] of operationsOf(methods)) {
          operations += 1;
          freshContainer();
          const verb = method.toUpperCase();
          const bodySchema =
            operation.requestBody && schemas[operation.requestBody.content["application/json"].schema.$ref.split("/").pop()!];
          const json = { "content-type": "application/json" };
          // Path parameters: each plausible value, then each hostile one.
          for (const values of [PARAMETER_VALUES, Object.fromEntries(Object.keys(PARAMETER_VALUES).map((key) => [key, HOSTILE]))]) {
            for (let at = 0; at < 3; at += 1) {
              const path = fill(`${prefix}${template}`, (name) => values[name]?.[at % values[name].length] ?? "x");
              await send({ method: verb, path, headers: json, body: bodySchema ? JSON.stringify(sample(bodySchema)) : undefined });
            }
          }
          const path = fill(`${prefix}${template}`, (name) => PARAMETER_VALUES[name]?.[0] ?? "x");
          // Bodies from the schema, fitting and not; then other content types and no body.
          if (bodySchema)
            for (const body of bodies(bodySchema)) await send({ method: verb, path, headers: json, body: JSON.stringify(body) });
          const otherTypes: Record<string, string>[] = [
            { "content-type": "text/plain" },
            {},
            { "content-type": "application/json; charset=utf-8" },
          ];
          for (const headers of otherTypes) {
            await send({ method: verb, path, headers, body: "{" });
            await send({ method: verb, path, headers });
          }
          // Random JSON bodies and query strings.
          await fc.assert(
            fc.asyncProperty(
              fc.jsonValue({ maxDepth: 4 }),
              fc.dictionary(
                fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("__proto__", "constructor", "toString", "macs", "nodeId", "name")),
                fc.string({ maxLength: 40 }),
                {
                  maxKeys: 4,
                },
              ),
              async (body, query) => {
                const search = new URLSearchParams(query).toString();
                await send({ method: verb, path: search ? `${path}?${search}` : path, headers: json, body: JSON.stringify(body) });
              },
            ),
            { numRuns: 60 },
          );
        }
      }
    }
    const summary = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(" ");
    process.stdout.write(`fuzz: ${operations} operations, ${requests} requests, statuses ${summary}\n`);
    // Every operation of the registry's two API services (the console's pages are in no document).
    expect(operations).toBe(ROUTES.filter((route) => route.service !== "console").length);
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
  });
});
