import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import type { Catalog } from "../../../../lib/provisioning/catalogs/catalog";
import { graphDefinition } from "../../../../lib/provisioning/graphs/graphLibrary";
import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { buildWorkflow } from "../../../../lib/provisioning/workflowEngine/buildWorkflow";
import { memoryProvisioningStores } from "../../../../lib/store/memory/provisioningStores";

/** The domain services' unit tests: the memory stores, and a clock in the test's hands. */
export const T0 = new Date("2026-11-24T10:00:00.000Z");
export const later = (ms: number): Date => new Date(T0.getTime() + ms);

export const memoryStores = () => memoryProvisioningStores({ capacity: 10_000, maxBytes: 64 << 20 });
export type Stores = ReturnType<typeof memoryStores>;

/** A compute node with one MAC, as POST /nodes makes it. */
export const aNode = (stores: Stores, name = "n1", mac = "52:54:00:00:00:01") =>
  createNode(stores, { name, type: "compute", identifiers: [mac] }, T0);

/** A catalog of the node, as discovery stores it. */
export const aCatalog = (node: string, source: string, data: unknown, id: string, at = T0): Catalog => ({
  id,
  node,
  source,
  data,
  createdAt: at.toISOString(),
  updatedAt: at.toISOString(),
});

/** The stores with some of one store's methods replaced (the rest its own): a race or a failure the memory store does not make. */
export const replacing = <K extends keyof Stores>(stores: Stores, store: K, methods: Record<string, unknown>): Stores => ({
  ...stores,
  [store]: Object.assign(Object.create(stores[store]), methods),
});

/** A running workflow of the node, as an install's credentials name it: its id, and the boot token given (if any). */
export async function anInstall(stores: Stores, node: string, bootToken?: string): Promise<{ id: string; bootToken?: string }> {
  const workflow = await stores.workflows.create(
    buildWorkflow(graphDefinition("Graph.Reboot.Node")!, {}, node, apiContextFor("http://x"), T0),
  );
  return { id: workflow.instanceId, ...(bootToken !== undefined && { bootToken }) };
}
