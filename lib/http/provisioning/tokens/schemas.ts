import { MAX_TOKEN_DAYS } from "../../../auth/tokenLimits";
import { isoTime, version } from "../fields";

/** API tokens for automation (issue 55; docs/team.md): schemas. */

const tokenId = { type: "string", pattern: "^[A-Za-z0-9_-]{16}$" } as const;
export const TokenParams = { type: "object", properties: { version, id: tokenId }, required: ["version", "id"] } as const;

/** POST /tokens. */
export const TokenBody = {
  type: "object",
  "x-error": "Body must be a JSON object with a name, a role and expiresInDays",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 100, "x-error": "name must be 1 to 100 characters" },
    role: {
      type: "string",
      minLength: 1,
      maxLength: 400,
      "x-error": "role must be viewer, operator or admin, with @site+site or @* (every site)",
    },
    expiresInDays: {
      type: "integer",
      minimum: 1,
      maximum: MAX_TOKEN_DAYS,
      "x-error": `expiresInDays must be a whole number of days from 1 to ${MAX_TOKEN_DAYS}`,
    },
  },
  required: ["name", "role", "expiresInDays"],
  additionalProperties: false,
  examples: [{ name: "ci-installs", role: "operator@rack-1", expiresInDays: 90 }],
} as const;

const token = {
  type: "object",
  properties: {
    id: tokenId,
    name: { type: "string" },
    owner: { type: "string", description: "The user who made it" },
    grant: { type: "string", description: "Its role and sites, as AUTH_ROLES writes one" },
    createdAt: isoTime,
    expiresAt: isoTime,
    lastUsedAt: { ...isoTime, description: "Its last use, to the minute; absent until used" },
  },
  required: ["id", "name", "owner", "grant", "createdAt", "expiresAt"],
  additionalProperties: false,
} as const;

export const ApiTokenRecord = token;
export const ApiTokenList = { type: "array", items: token } as const;

/** The answer to POST /tokens: the token itself, shown this once and stored only as a hash. */
export const ApiTokenWithSecret = {
  type: "object",
  properties: {
    ...token.properties,
    token: { type: "string", pattern: "^rhdt_", description: "Authorization: Bearer <token>; shown once" },
  },
  required: [...token.required, "token"],
  additionalProperties: false,
} as const;
