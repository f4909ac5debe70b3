import { ConflictError, NotFoundError } from "../../errors";
import { forgetNode } from "../lookups/lookupService";
import { planOf } from "../networkPlans/networkPlan";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import { removeNodePollers } from "../pollers/pollerService";
import type { StoresOf } from "../ports";
import { freeAddress } from "../subnets/allocation";
import { refreshWorkflow, type WorkflowStores } from "../workflows/workflowService";

/**
 * Node deletion, a use case of its own because it cascades: it asks the workflow service whether
 * the node is busy, then removes its lookups, catalogs and pollers, and frees its addresses. It lives in lifecycle/, the
 * folder above nodes, pollers and workflows (each of which reads nodes), so that nodes/ imports
 * none of them back (the folder-knot check, tests/unit/architecture/boundaries.test.ts).
 */
/** Refused (409) while a workflow is active on the node; RackHD answered 500 here. */
export async function deleteNode(
  stores: WorkflowStores & StoresOf<"addresses" | "installReports" | "instances" | "pollerSamples">,
  identifier: string,
  now: Date,
): Promise<Node> {
  const node = await findNode(stores, identifier);
  const active = await stores.workflows.activeForNode(node.id);
  if (active && (await refreshWorkflow(stores, active, now))._status === "running") {
    throw new ConflictError(`Could not remove node ${node.id}, active workflow is running`);
  }
  const deleted = await stores.nodes.delete(node.id, node);
  if (!deleted) throw new NotFoundError(`Could not find node with identifier ${identifier}`);
  // Its catalogs and pollers go with it (RackHD); its lookups lose their node.
  await Promise.all([
    forgetNode(stores, node.id, now),
    stores.catalogs.removeNode(node.id),
    removeNodePollers(stores, node.id),
    stores.instances.delete(node.id),
    stores.installReports.delete(node.id),
    // Its network plan's addresses go back to their pools.
    ...(planOf(node)?.given ?? []).map((given) => freeAddress(stores, given.allocation, node.id)),
  ]);
  return deleted;
}
