/** RackHD's `POST /login` (issue 55): schemas. */

/** Its body: RackHD's passport-local fields; a missing one is RackHD's 400 "Missing credentials" (the handler's, not the schema's). */
export const LoginBody = {
  type: "object",
  "x-error": "Body must be a JSON object with a username and a password",
  properties: {
    username: { type: "string", maxLength: 256 },
    password: { type: "string", maxLength: 1024 },
  },
  examples: [{ username: "admin", password: "admin123" }],
} as const;

/** Its answer: RackHD's, a token for `Authorization: JWT <token>` (or `?auth_token=`), valid 24 hours. */
export const LoginToken = {
  type: "object",
  properties: {
    token: { type: "string", pattern: "^rhdt_", description: "An API token named login, with the user's grants, for 24 hours" },
  },
  required: ["token"],
  additionalProperties: false,
} as const;
