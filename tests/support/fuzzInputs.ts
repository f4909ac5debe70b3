import { nodeIdForMac } from "../../lib/provisioning/ids";

/** Inputs shared by the fuzz tests: made from the OpenAPI documents, plausible and hostile. */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  maxLength?: number;
  enum?: unknown[];
};
export type Operation = { requestBody?: { content: Record<string, { schema: { $ref: string } }> } };

export const DEMO_MAC = "08:00:27:27:eb:12";

/** Plausible values for path parameters. */
export const PARAMETER_VALUES: Record<string, string[]> = {
  id: ["1", "03", nodeIdForMac(DEMO_MAC), "Serializables.V1.Node"],
  identifier: [nodeIdForMac(DEMO_MAC), DEMO_MAC, "08-00-27-27-EB-12"],
  service: ["noop-obm-service", "ipmi-obm-service"],
  name: ["Graph.noop-example", "centos-ks", "*"],
};
/** Hostile ones. */
export const HOSTILE = ["x".repeat(300), "%00", "..%2F..", "-1", "__proto__", "constructor", "%F0%9F%92%A9", "a b"];

export const WRONG_VALUES = [123, -1.5, "text", true, null, [], {}, [1, "a"], { nested: { deep: [null] } }];

/** A value that fits a schema node, for the common shapes the documents use. */
export function sample(schema: Schema | undefined): unknown {
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
export function bodies(schema: Schema | undefined): unknown[] {
  const valid = sample(schema) as Record<string, unknown>;
  const out: unknown[] = [valid, ...WRONG_VALUES];
  for (const key of Object.keys(schema?.properties ?? {})) {
    for (const wrong of WRONG_VALUES) out.push({ ...valid, [key]: wrong });
    const { [key]: _dropped, ...without } = valid;
    out.push(without);
    const bound = schema?.properties?.[key]?.maxLength;
    out.push({ ...valid, [key]: "y".repeat((bound ?? 4096) + 1) });
  }
  out.push({ ...valid, unknownField: "z", __proto__: { polluted: true }, constructor: 1 });
  return out;
}

/** A path template with its `{name}` parameters filled in (URL-encoded). */
export const fill = (template: string, pick: (name: string) => string): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pick(name)));
