/** Documentation answers both services give (their documents and docs pages). */

/** An OpenAPI 3.1 document (GET …/openapi.json). */
export const OpenApiDocument = {
  type: "object",
  properties: { openapi: { type: "string" }, info: { type: "object" }, paths: { type: "object" } },
  required: ["openapi", "info", "paths"],
} as const;

/** A docs page (text/html). */
export const Html = { type: "string" } as const;

/** The docs page's viewer (text/javascript: Redoc's standalone bundle, served by the service itself). */
export const ViewerScript = { type: "string" } as const;
