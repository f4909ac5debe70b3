import { name, version } from "../fields";

/** Schemas every provisioning resource uses: path parameters, the error body, no content: schemas. */

export const VersionParams = {
  type: "object",
  properties: { version },
  required: ["version"],
} as const;

export const NodeParams = {
  type: "object",
  properties: { version, identifier: name },
  required: ["version", "identifier"],
} as const;

/** A graph or a template by name. */
export const NameParams = {
  type: "object",
  properties: { version, name },
  required: ["version", "name"],
} as const;

/** A catalog or SKU by id. */
export const IdParams = {
  type: "object",
  properties: { version, id: name },
  required: ["version", "id"],
} as const;

/** RackHD's `{"error":"Not Found"}` (bootstrap.js for a MAC no node has, a library entry no one put). */
export const PlainNotFound = {
  type: "object",
  properties: { error: { const: "Not Found" } },
  required: ["error"],
  additionalProperties: false,
} as const;

/** 204: no body. */
export const NoContent = {} as const;

/** Every provisioning error: RackHD's `{"message": text}`. */
export const RackhdError = {
  type: "object",
  properties: { message: { type: "string" } },
  required: ["message"],
  additionalProperties: false,
} as const;
