/** The contract, served: the OpenAPI document, a docs page, and RackHD's serializable schemas: schemas. */

/** A page that lives elsewhere (GET /docs): where, as in the Location header. */
export const PageRedirect = {
  type: "object",
  properties: { location: { type: "string" } },
  required: ["location"],
  additionalProperties: false,
} as const;

/** RackHD's serializable schemas (GET /schemas): JSON Schemas named by `id`. */
export const SerializableSchema = { type: "object", properties: { id: { type: "string" } }, required: ["id"] } as const;

export const SerializableSchemaList = { type: "array", items: SerializableSchema } as const;

/** A schema id path parameter (`Serializables.V1.Node`). */
export const SchemaIdParams = {
  type: "object",
  properties: { version: { enum: ["1.1", "current", "common"] }, id: { type: "string", minLength: 1, maxLength: 255 } },
  required: ["version", "id"],
} as const;
