import fc from "fast-check";
import provisioningDocument from "../../lib/http/openapi/provisioning.generated.json";
import tasksDocument from "../../lib/http/openapi/tasks.generated.json";
import { nodeIdForMac } from "../../lib/provisioning/ids";
import { api, freshContainer } from "../support/api";

jest.setTimeout(300_000);

/**
 * A schema-driven fuzz test: for every operation of both OpenAPI documents, requests made from
 * the document (valid ones, and deliberately invalid ones: wrong types, missing and unknown
 * fields, strings past their bounds, odd path parameters and queries, wrong content types) go
 * through the in-process router. `api()` checks each answer against the document (a declared
 * status, its content type, a body that fits); here, no answer may be a 5xx.
 */
type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; maxLength?: number; enum?: unknown[] };
type Operation = { requestBody?: { content: Record<string, { schema: { $ref: string } }> } };

const SERVICES = [
  { document: tasksDocument, prefix: "/todo/api/v1.0" },
  { document: provisioningDocument, prefix: "/api/1.1" },
];
const DEMO_MAC = "08:00:27:27:eb:12";

/** Plausible values for path parameters, and hostile ones. */
const PARAMETER_VALUES: Record<string, string[]> = {
  id: ["1", "03", nodeIdForMac(DEMO_MAC), "Serializables.V1.Node"],
  identifier: [nodeIdForMac(DEMO_MAC), DEMO_MAC, "08-00-27-27-EB-12"],
  service: ["noop-obm-service", "ipmi-obm-service"],
  name: ["Graph.noop-example", "centos-ks", "*"],
};
const HOSTILE = ["x".repeat(300), "%00", "..%2F..", "-1", "__proto__", "constructor", "%F0%9F%92%A9", "a b"];

const wrongValues = [123, -1.5, "text", true, null, [], {}, [1, "a"], { nested: { deep: [null] } }];

/** A value that fits a schema node, for the common shapes the documents use. */
function sample(schema: Schema | undefined): unknown {
  if (!schema) return "x";
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sample(value)]));
  }
  if (type === "array") return [];
  if (type === "boolean") return false;
  if (type === "integer" || type === "number") return 1;
  return "fuzz";
}

/** Bodies for an operation: a fitting one, then every field wrong, missing, too long, and extra fields. */
function bodies(schema: Schema | undefined): unknown[] {
  const valid = sample(schema) as Record<string, unknown>;
  const out: unknown[] = [valid, ...wrongValues];
  for (const key of Object.keys(schema?.properties ?? {})) {
    for (const wrong of wrongValues) out.push({ ...valid, [key]: wrong });
    const { [key]: _dropped, ...without } = valid;
    out.push(without);
    const bound = schema?.properties?.[key]?.maxLength;
    out.push({ ...valid, [key]: "y".repeat((bound ?? 4096) + 1) });
  }
  out.push({ ...valid, unknownField: "z", __proto__: { polluted: true }, constructor: 1 });
  return out;
}

const fill = (template: string, pick: (name: string) => string): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pick(name)));

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
        for (const [method, operation] of Object.entries(methods)) {
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
    expect(operations).toBe(33);
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
  });
});
