import { ConflictError, NotFoundError } from "../../errors";
import { newObjectId } from "../ids";
import { forgetNode, nodeAtAddress } from "../lookups/lookupService";
import { normalizeIdentifier } from "../mac";
import { assertServicesSupported, upsertObmSettings } from "../obm/obmSetting";
import { removeNodePollers } from "../pollers/pollerService";
import type { ProvisioningStores } from "../ports";
import { matchesFilters } from "../queryFilters";
import { assertRecordFits, fitsKey } from "../recordSize";
import { keepRedactedSecrets } from "../secrets";
import { refreshWorkflow } from "../workflows/workflowService";
import { buildNode, type Node, type NodeInput, parseNewNode, parseNodePatch } from "./node";

const IPV4 = /^(\d{1,3}\.){3}\d{1,3}$/;

/**
 * The node named by `identifier`: its id, one of its identifiers (a MAC in any spelling), or an
 * IP address it fetched a boot profile from.
 */
export async function findNode(stores: ProvisioningStores, identifier: string): Promise<Node> {
  if (!fitsKey(identifier)) throw new NotFoundError(`Could not find node with identifier ${identifier.slice(0, 64)}…`);
  let node = await stores.nodes.find(normalizeIdentifier(identifier));
  if (!node && IPV4.test(identifier)) {
    const id = await nodeAtAddress(stores, identifier);
    if (id !== undefined) node = await stores.nodes.get(id);
  }
  if (!node) throw new NotFoundError(`Could not find node with identifier ${identifier}`);
  return node;
}

export async function listNodes(stores: ProvisioningStores, filters: Record<string, string[]>): Promise<Node[]> {
  const nodes = await stores.nodes.list();
  if (Object.keys(filters).length === 0) return nodes;
  const normalize = (key: string, value: string) => (key === "identifiers" ? normalizeIdentifier(value) : value);
  return nodes.filter((node) => matchesFilters(node, filters, normalize));
}

export async function createNode(stores: ProvisioningStores, body: NodeInput & { name: string }, now: Date): Promise<Node> {
  const input = parseNewNode(body);
  const node = buildNode(input, input.id ?? newObjectId(now), now);
  assertServicesSupported(node.obmSettings, node);
  assertRecordFits(node, "node");
  return stores.nodes.create(node);
}

/** 404 first, then the body; a whole node echoed back (with "REDACTED" secrets) is accepted. */
export async function patchNode(
  stores: ProvisioningStores,
  identifier: string,
  readBody: () => Promise<NodeInput>,
  now: Date,
): Promise<Node> {
  const found = await findNode(stores, identifier);
  const patch = parseNodePatch(await readBody());
  const updated = await stores.nodes.update(
    found.id,
    (current) => {
      const { obmSettings, ...fields } = patch;
      const next = { ...current, ...(keepRedactedSecrets(fields, current) as Partial<Node>), updatedAt: now.toISOString() } as Node;
      if (obmSettings) {
        assertServicesSupported(obmSettings, next);
        next.obmSettings = upsertObmSettings(current.obmSettings, obmSettings);
      }
      assertRecordFits(next, "node");
      return next;
    },
    found,
  );
  if (!updated) throw new NotFoundError(`Could not find node with identifier ${identifier}`);
  return updated;
}

/** Refused (409) while a workflow is active on the node; RackHD answered 500 here. */
export async function deleteNode(stores: ProvisioningStores, identifier: string, now: Date): Promise<Node> {
  const node = await findNode(stores, identifier);
  const active = await stores.workflows.activeForNode(node.id);
  if (active && (await refreshWorkflow(stores, active, now))._status === "running") {
    throw new ConflictError(`Could not remove node ${node.id}, active workflow is running`);
  }
  const deleted = await stores.nodes.delete(node.id, node);
  if (!deleted) throw new NotFoundError(`Could not find node with identifier ${identifier}`);
  // Its catalogs and pollers go with it (RackHD); its lookups lose their node.
  await Promise.all([forgetNode(stores, node.id, now), stores.catalogs.removeNode(node.id), removeNodePollers(stores, node.id)]);
  return deleted;
}
