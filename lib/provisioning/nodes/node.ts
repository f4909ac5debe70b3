import { ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import { OBJECT_ID } from "../ids";
import { normalizeIdentifier } from "../mac";
import { parseObmSettings, type ObmSetting } from "../obm/obmSetting";

export const NODE_TYPES = ["compute", "switch", "dae", "pdu", "mgmt", "enclosure"] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** A node as stored. Keys beyond these are the client's own and are kept as sent. */
export interface Node {
  id: string;
  name: string;
  identifiers: string[];
  type: NodeType;
  obmSettings: ObmSetting[];
  autoDiscover: boolean;
  sku: string | null;
  relations: unknown[];
  tags: string[];
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/** Keys the service owns: a client cannot set them (a whole-node echo sends them back unchanged). */
const SERVER_KEYS = new Set(["id", "createdAt", "updatedAt", "workflows", "catalogs"]);

const schemaViolation = (why: string) => new ValidationError(`JSON Schema Violation: ${why}`);

function parseFields(body: Record<string, unknown>): Partial<Node> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (SERVER_KEYS.has(key) || key === "") continue;
    fields[key] = value;
  }
  if ("name" in fields && (typeof fields.name !== "string" || fields.name === "")) throw schemaViolation("name must be a non-empty string");
  if ("type" in fields && !NODE_TYPES.includes(fields.type as NodeType)) {
    throw schemaViolation(`type must be one of ${NODE_TYPES.join(", ")}`);
  }
  if ("identifiers" in fields) {
    if (!Array.isArray(fields.identifiers) || !fields.identifiers.every((i) => typeof i === "string" && i !== "")) {
      throw schemaViolation("identifiers must be an array of strings");
    }
    fields.identifiers = [...new Set((fields.identifiers as string[]).map(normalizeIdentifier))];
  }
  if ("autoDiscover" in fields) {
    // RackHD's clients (FIT) send the strings "true"/"false"; RackHD took them.
    const value = fields.autoDiscover;
    if (value === "true" || value === "false") fields.autoDiscover = value === "true";
    else if (typeof value !== "boolean") throw schemaViolation("autoDiscover must be a boolean");
  }
  if ("obmSettings" in fields) {
    if (!Array.isArray(fields.obmSettings)) throw schemaViolation("obmSettings must be an array");
    fields.obmSettings = fields.obmSettings.length === 0 ? [] : parseObmSettings(fields.obmSettings);
  }
  if ("tags" in fields && (!Array.isArray(fields.tags) || !fields.tags.every((t) => typeof t === "string"))) {
    throw schemaViolation("tags must be an array of strings");
  }
  if ("relations" in fields && !Array.isArray(fields.relations)) throw schemaViolation("relations must be an array");
  if ("sku" in fields && fields.sku !== null && typeof fields.sku !== "string") throw schemaViolation("sku must be a string or null");
  return fields as Partial<Node>;
}

export interface NewNodeInput {
  fields: Partial<Node> & { name: string };
  /** A client-supplied id (24 lowercase hex), when given. */
  id?: string;
}

/** POST /nodes body. */
export function parseNewNode(body: unknown): NewNodeInput {
  if (!isPlainObject(body)) throw schemaViolation("body must be a JSON object");
  const fields = parseFields(body);
  if (typeof fields.name !== "string") throw schemaViolation("name is required");
  let id: string | undefined;
  if (body.id !== undefined) {
    if (typeof body.id !== "string" || !OBJECT_ID.test(body.id.toLowerCase())) throw schemaViolation("id must be 24 hexadecimal characters");
    id = body.id.toLowerCase();
  }
  return { fields: fields as NewNodeInput["fields"], id };
}

/** PATCH /nodes/{id} body: any subset of the fields; id, createdAt, updatedAt are ignored. */
export function parseNodePatch(body: unknown): Partial<Node> {
  if (!isPlainObject(body)) throw schemaViolation("body must be a JSON object");
  return parseFields(body);
}

export function buildNode(input: NewNodeInput, id: string, now: Date): Node {
  const stamp = now.toISOString();
  // The parsed fields never hold id, createdAt or updatedAt (see SERVER_KEYS).
  const { name, ...fields } = input.fields;
  return {
    id,
    name,
    identifiers: [],
    type: "compute",
    obmSettings: [],
    autoDiscover: false,
    sku: null,
    relations: [],
    tags: [],
    ...fields,
    createdAt: stamp,
    updatedAt: stamp,
  };
}

/** Byte estimate of a stored node, for the memory store's budget. */
export const nodeFootprint = (node: Node): number => 2 * JSON.stringify(node).length + 128;
