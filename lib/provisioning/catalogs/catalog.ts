import { isPlainObject } from "../../json";
import { orderedId } from "../ids";

/** A catalog (RackHD §3): what one command told about a node's hardware, by source (`dmi`, `lshw`, …). */
export interface Catalog {
  id: string;
  node: string;
  source: string;
  data: unknown;
  createdAt: string;
  updatedAt: string;
}

/**
 * Keys with `.` or `$` become `_` (RackHD stored catalogs in MongoDB, which refuses them; SKU and
 * tag rule paths are written that way, e.g. ohai's dotted keys).
 */
export function storableKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(storableKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key.replace(/[.$]/g, "_")] = storableKeys(inner);
  return out;
}

export function newCatalogs(nodeId: string, results: readonly { source: string; data: unknown }[], now: Date): Catalog[] {
  const stamp = now.toISOString();
  return results.map(({ source, data }, place) => ({
    id: orderedId(now, place),
    node: nodeId,
    source,
    data: storableKeys(data),
    createdAt: stamp,
    updatedAt: stamp,
  }));
}
