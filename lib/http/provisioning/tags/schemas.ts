import { isoTime, NAME_MAX, name, rules, version } from "../fields";

/** Tags (RackHD era C): names for nodes by rules: schemas. */

/** Most tags a node carries (each is an index item written with the node, in one transaction). */
export const NODE_TAGS_MAX = 32;

export const TagParams = {
  type: "object",
  properties: { version, name },
  required: ["version", "name"],
} as const;

export const NodeTagParams = {
  type: "object",
  properties: { version, identifier: name, tag: name },
  required: ["version", "identifier", "tag"],
} as const;

/** POST /tags: a name and rules (the same rule language as SKUs). */
export const TagBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  "x-errors": { required: "name (string) and rules ([object]) are required" },
  properties: {
    name: { type: "string", minLength: 1, maxLength: NAME_MAX, "x-error": "name (string) is required" },
    rules,
  },
  required: ["name", "rules"],
  examples: [{ name: "virtualbox", rules: [{ path: "dmi.System Information.Product Name", equals: "VirtualBox" }] }],
} as const;

/** PATCH /nodes/{id}/tags: tags to add; a body without `tags` changes nothing (204). */
export const NodeTagsBody = {
  type: "object",
  "x-error": "Body must be a JSON object",
  properties: {
    tags: {
      type: "array",
      maxItems: NODE_TAGS_MAX,
      items: { type: "string", minLength: 1, maxLength: NAME_MAX },
      "x-error": `tags must be an array of at most ${NODE_TAGS_MAX} names of 1 to 255 characters`,
    },
  },
  examples: [{ tags: ["dockermachine"] }],
} as const;

const tag = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    rules: { type: "array", items: { type: "object" } },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
  required: ["id", "name", "rules", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

export const Tag = tag;

export const TagList = { type: "array", items: tag } as const;

/** A node's tags, or the tags a PATCH added. */
export const TagNames = { type: "array", items: { type: "string" } } as const;

/** DELETE /nodes/{id}/tags/{tag} answers the tag's name as a JSON string. */
export const TagName = { type: "string" } as const;
