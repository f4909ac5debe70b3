/** RackHD 2.0's `/users` (issue 55), read-only here: the Basic users and what each holds. Schemas. */

/** RackHD's users are under /api/2.0; the service's other versions name them too. */
const usersVersion = { enum: ["2.0", "1.1", "current", "common"] } as const;

export const UsersParams = { type: "object", properties: { version: usersVersion }, required: ["version"] } as const;
export const UserParams = {
  type: "object",
  properties: { version: usersVersion, name: { type: "string", minLength: 1, maxLength: 256 } },
  required: ["version", "name"],
} as const;

const user = {
  type: "object",
  properties: {
    username: { type: "string" },
    role: {
      oneOf: [{ enum: ["Administrator", "Operator", "ReadOnly"] }, { type: "null" }],
      description: "RackHD's name of the highest role held (on some site: `grants` says which); null for none",
    },
    grants: { type: "array", items: { type: "string" }, description: "What the user holds, as AUTH_ROLES writes it (`operator@rack-1`)" },
  },
  required: ["username", "role", "grants"],
  additionalProperties: false,
} as const;

export const RackhdUser = user;
export const RackhdUserList = { type: "array", items: user } as const;
