/** Schemas both services share: the query string, and the documentation answers. */

// Query strings: every parameter with all its values (`?macs=a&macs=b`), bounded.

/** Any query parameter's values. */
export const queryValues = {
  type: "array",
  maxItems: 64,
  items: { type: "string", maxLength: 1_024 },
  "x-error": "Query parameters take at most 64 values of at most 1024 characters each",
} as const;

export const Query = {
  type: "object",
  maxProperties: 64,
  "x-error": "Query string has more than 64 parameters",
  additionalProperties: queryValues,
} as const;

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

// The operator console (/console): a page and its two assets, not part of either API's document.

/** An asset's name: the console's script or stylesheet, named by its content's hash. */
export const ConsoleAssetParams = {
  type: "object",
  properties: { name: { type: "string", pattern: "^app-[0-9a-f]{12}\\.(js|css)$" } },
  required: ["name"],
} as const;

/** The console's script (text/javascript) or stylesheet (text/css). */
export const ConsoleAsset = { type: "string" } as const;

/** The console's 404: an asset name no deployment served (an old page's, say). */
export const ConsoleNotFound = {
  type: "object",
  properties: { message: { type: "string" } },
  required: ["message"],
} as const;

/** GET /console/session: who the console's session is (the provider's signed-in user), and whether it may sign in with the provider. */
export const ConsoleSession = {
  type: "object",
  properties: {
    user: { type: ["string", "null"], description: "The signed-in user's name (OIDC_NAME_CLAIM), or null" },
    provider: { type: "boolean", description: "Whether the console can sign in with the identity provider (OIDC_CONSOLE_CLIENT)" },
  },
  required: ["user", "provider"],
  additionalProperties: false,
} as const;
