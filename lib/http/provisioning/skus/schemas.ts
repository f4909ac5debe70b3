import { isoTime, NAME_MAX, objectId, rules } from "../fields";

/** SKUs: classes of nodes by their catalogs (RackHD 1.1 §2.4): schemas. */

/** POST /skus: name and rules required (the domain checks each rule key); other keys are kept. */
export const SkuBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  "x-errors": { required: "name (string) and rules ([object]) are required" },
  properties: {
    name: { type: "string", minLength: 1, maxLength: 1024, "x-error": "name (string) is required" },
    rules,
    discoveryGraphName: { type: "string", maxLength: NAME_MAX, "x-error": "discoveryGraphName must be a graph name" },
    discoveryGraphOptions: { type: "object", "x-error": "discoveryGraphOptions must be an object" },
  },
  required: ["name", "rules"],
  examples: [
    {
      name: "Noop OBM settings for VirtualBox nodes",
      discoveryGraphName: "Graph.noop-example",
      discoveryGraphOptions: {},
      rules: [{ path: "dmi.System Information.Product Name", equals: "VirtualBox" }],
    },
  ],
} as const;

/** PATCH /skus/{id}: any of the fields. */
export const SkuPatchBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: SkuBody.properties,
  examples: [{ name: "test3" }],
} as const;

const sku = {
  type: "object",
  properties: {
    id: objectId,
    name: { type: "string" },
    rules: { type: "array", items: { type: "object" } },
    discoveryGraphName: { type: "string" },
    discoveryGraphOptions: { type: "object" },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "name", "rules", "createdAt", "updatedAt"],
} as const;

export const Sku = sku;

export const SkuList = { type: "array", items: sku } as const;
