import { credential, isoTime, objectId, version } from "../fields";

/** cloud-init's NoCloud datasource and each machine's instance credential: schemas. */

/** A seed document: the credential (`<node id>.<secret>`) and the document's name; anything else names nothing (404). */
export const SeedParams = {
  type: "object",
  properties: {
    version,
    credential,
    path: { type: "string", minLength: 1, maxLength: 256 },
  },
  required: ["version", "credential", "path"],
} as const;

/** PUT /nodes/{identifier}/user-data: the user-data (any text cloud-init reads: `#cloud-config`, a script, a MIME multipart), or null to remove it. */
export const UserDataBody = {
  type: "object",
  "x-error": "Body must be a JSON object with userData (text of at most 65536 bytes, or null)",
  properties: {
    userData: {
      oneOf: [{ type: "string", maxLength: 65536 }, { type: "null" }],
      "x-error": "userData must be text of at most 65536 bytes, or null",
    },
  },
  required: ["userData"],
  additionalProperties: false,
  examples: [{ userData: "#cloud-config\nhostname: web-1\n" }],
} as const;

/** Whether a node has user-data, its size and hash: never its text, which may hold secrets. */
export const UserDataStatus = {
  type: "object",
  properties: {
    set: { type: "boolean" },
    bytes: { type: "integer", minimum: 0 },
    sha256: { type: "string", pattern: "^[0-9a-f]{64}$" },
    updatedAt: isoTime,
  },
  required: ["set", "bytes"],
  additionalProperties: false,
} as const;

/** The instance credential, shown once, and the seed URL cloud-init is given (`ds=nocloud;s=<seedUrl>`). */
export const InstanceCredential = {
  type: "object",
  properties: {
    node: objectId,
    instanceId: { type: "string", pattern: "^i-[0-9a-f]{16}$" },
    credential: { type: "string" },
    seedUrl: { type: "string" },
  },
  required: ["node", "instanceId", "credential", "seedUrl"],
  additionalProperties: false,
} as const;

/** POST /nodes/{identifier}/instance-credential: `reinstall` gives the installed system a new instance id too. */
export const InstanceCredentialBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: { reinstall: { type: "boolean", "x-error": "reinstall must be true or false" } },
  additionalProperties: false,
  examples: [{ reinstall: true }],
} as const;
