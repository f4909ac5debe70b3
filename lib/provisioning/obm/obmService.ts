import { NotFoundError } from "../../errors";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import { OBM_LIBRARY, type ObmServiceEntry, obmServiceEntry } from "../obmServices/obmLibrary";
import { type ObmSetting, type ObmSettingInput, parseObmSettings } from "../obmServices/obmSetting";
import type { StoresOf } from "../ports";
import { writeObmSettings } from "./writeObmSettings";

export const obmLibrary = (): readonly ObmServiceEntry[] => OBM_LIBRARY;

export function obmLibraryEntry(service: string): ObmServiceEntry {
  const entry = obmServiceEntry(service);
  if (!entry) throw new NotFoundError(`Could not find OBM service ${service}`);
  return entry;
}

export async function nodeObmSettings(stores: StoresOf<"lookups" | "nodes">, identifier: string): Promise<ObmSetting[]> {
  return (await findNode(stores, identifier)).obmSettings;
}

/**
 * POST /nodes/{id}/obm: 404 for an unknown node, then 400 for a bad body, an unknown service, or
 * a service the node's type does not support; then an upsert per service.
 */
export async function setNodeObm(
  stores: StoresOf<"lookups" | "nodes">,
  identifier: string,
  readBody: () => Promise<ObmSettingInput | readonly ObmSettingInput[]>,
  now: Date,
): Promise<Node> {
  const node = await findNode(stores, identifier);
  const updated = await writeObmSettings(stores, node, parseObmSettings(await readBody()), now);
  if (!updated) throw new NotFoundError(`Could not find node with identifier ${identifier}`);
  return updated;
}
