import { normalizeIdentifier } from "../mac";
import { type ObmSetting, type ObmSettingInput, parseObmSettings } from "../obmServices/obmSetting";
import { DEFAULT_STATE, type Provisioning, type ProvisionState } from "./provisionState";

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
  /** Where the node is in its life (nodes/provisionState.ts); absent on a node stored before states were (it is `discovered`). */
  provisionState?: ProvisionState;
  /** Its running or last action, owner and purpose, install, last error. */
  provisioning?: Provisioning;
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/**
 * A node body as the HTTP adapter hands it over, checked against its schema (types and bounds):
 * what is left here are the domain's own rules (normalised MACs, RackHD's "true"/"false", known
 * OBM services, keys the server owns).
 */
export interface NodeInput {
  name?: string;
  type?: NodeType;
  identifiers?: string[];
  autoDiscover?: boolean | "true" | "false";
  obmSettings?: ObmSettingInput[];
  tags?: string[];
  relations?: unknown[];
  sku?: string | null;
  id?: string;
  [extra: string]: unknown;
}

/** What the node's microkernel read of its firmware's Secure Boot (`enabled`, `disabled`, `unsupported`: BIOS), if it has reported. */
export const secureBootOf = (node: Node | undefined): unknown => (node?.secureBoot as { state?: unknown } | undefined)?.state;

/** Keys the service owns: a client cannot set them (a whole-node echo sends them back unchanged). */
const SERVER_KEYS = new Set([
  "id",
  "createdAt",
  "updatedAt",
  "workflows",
  "catalogs",
  "secureBoot",
  "obmConflict",
  "addresses",
  // Written only by PUT /nodes/{identifier}/network (its addresses are given there).
  "network",
  // Moved only by actions (POST /nodes/{identifier}/actions), never by a PATCH.
  "provisionState",
  "provisioning",
]);

function nodeFields(body: NodeInput): Partial<Node> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (SERVER_KEYS.has(key) || key === "") continue;
    fields[key] = value;
  }
  if (body.identifiers) fields.identifiers = [...new Set(body.identifiers.map(normalizeIdentifier))];
  if (body.tags) fields.tags = [...new Set(body.tags)];
  // RackHD's clients (FIT) send the strings "true"/"false"; RackHD took them.
  if (typeof body.autoDiscover === "string") fields.autoDiscover = body.autoDiscover === "true";
  if (body.obmSettings) fields.obmSettings = body.obmSettings.length === 0 ? [] : parseObmSettings(body.obmSettings);
  return fields as Partial<Node>;
}

export interface NewNodeInput {
  fields: Partial<Node> & { name: string };
  /** A client-supplied id (24 lowercase hex), when given. */
  id?: string;
}

/** POST /nodes body. */
export function parseNewNode(body: NodeInput & { name: string }): NewNodeInput {
  return { fields: nodeFields(body) as NewNodeInput["fields"], id: body.id?.toLowerCase() };
}

/** PATCH /nodes/{id} body: any subset of the fields; id, createdAt, updatedAt are ignored. */
export const parseNodePatch = (body: NodeInput): Partial<Node> => nodeFields(body);

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
    provisionState: DEFAULT_STATE,
    createdAt: stamp,
    updatedAt: stamp,
  };
}

/** Byte estimate of a stored node, for the memory store's budget. */
export const nodeFootprint = (node: Node): number => 2 * JSON.stringify(node).length + 128;
