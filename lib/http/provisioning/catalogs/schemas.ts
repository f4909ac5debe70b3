import { isoTime, name, objectId, version } from "../fields";

/** Catalogs: what discovery found (RackHD 1.1 §2.3): schemas. */

export const NodeSourceParams = {
  type: "object",
  properties: { version, identifier: name, source: name },
  required: ["version", "identifier", "source"],
} as const;

const catalog = {
  type: "object",
  properties: { id: objectId, node: { type: "string" }, source: { type: "string" }, data: {}, createdAt: isoTime, updatedAt: isoTime },
  required: ["id", "node", "source", "data", "createdAt", "updatedAt"],
  additionalProperties: false,
} as const;

export const Catalog = catalog;

export const CatalogList = { type: "array", items: catalog } as const;
