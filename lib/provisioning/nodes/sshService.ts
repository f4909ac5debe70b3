import type { StoresOf } from "../ports";
import { assertRecordFits } from "../recordSize";
import { findNode } from "./findNode";
import type { Node } from "./node";
import { parseSshSettings, type SshSettings } from "./sshSettings";

/** GET /nodes/{id}/ssh: the node's SSH settings, or undefined (204, RackHD era C). The caller redacts. */
export async function nodeSshSettings(stores: StoresOf<"lookups" | "nodes">, identifier: string): Promise<SshSettings | undefined> {
  const node = await findNode(stores, identifier);
  return node.sshSettings as SshSettings | undefined;
}

/** POST /nodes/{id}/ssh: 404, then RackHD's 400 "Invalid SSH body"; replaces the settings; answers the node. */
export async function setNodeSshSettings(
  stores: StoresOf<"lookups" | "nodes">,
  identifier: string,
  body: unknown,
  now: Date,
): Promise<Node> {
  const node = await findNode(stores, identifier);
  const sshSettings = parseSshSettings(body);
  const set = (current: Node): Node => {
    const next = { ...current, sshSettings, updatedAt: now.toISOString() };
    assertRecordFits(next, "node");
    return next;
  };
  return (await stores.nodes.update(node.id, set, node)) ?? set(node);
}
