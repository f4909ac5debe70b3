import { findGraph } from "../graphs/libraryService";
import type { Node } from "../nodes/node";
import { createIpmiObmSettings } from "../obm/ipmiSettings";
import { createDefaultPollers } from "../pollers/pollerService";
import type { StoresOf } from "../ports";
import { assignSku } from "../skus/skuMatching";
import { applyTags } from "../tags/tagMatching";
import type { WorkflowTask } from "../workflowEngine/workflow";
import type { EffectOutcome } from "../workflows/taskKinds";

/**
 * Does the work of an `effect` task on the service's own records (RackHD's jobs of the same
 * names): generate-sku sets the node's SKU from its catalogs, generate-tag adds the tags its
 * catalogs earn, create-default-pollers gives a node with a BMC catalog its five IPMI pollers, run-sku-graph names the SKU's discovery graph, which starts when this workflow
 * has ended (a node runs one workflow at a time). Each may run again after a crash: all are
 * idempotent.
 */
export async function performEffect(
  stores: StoresOf<"catalogs" | "definitions" | "nodes" | "pollers" | "skus" | "tags">,
  node: Node,
  task: WorkflowTask,
  now: Date,
  secrets: Record<string, string> = {},
): Promise<EffectOutcome> {
  switch (task.runJob) {
    case "Job.Catalog.GenerateSku":
      await assignSku(stores, node, await stores.skus.list(), now);
      return { state: "succeeded" };
    case "Job.Catalog.GenerateTag":
      await applyTags(stores, node, await stores.tags.list(), now);
      return { state: "succeeded" };
    case "Job.Pollers.CreateDefault":
      await createDefaultPollers(stores, node, now);
      return { state: "succeeded" };
    case "Job.Obm.Ipmi.CreateSettings":
      return createIpmiObmSettings(stores, node, { ...task.options, ...secrets }, now);
    case "Job.Graph.RunSku":
      return skuGraph(stores, node);
    default:
      return { state: "failed", error: `No job ${task.runJob} runs here` };
  }
}

async function skuGraph(stores: StoresOf<"definitions" | "nodes" | "skus">, node: Node): Promise<EffectOutcome> {
  const current = await stores.nodes.get(node.id);
  const sku = current?.sku ? await stores.skus.get(current.sku) : undefined;
  const name = sku?.discoveryGraphName;
  if (!sku || typeof name !== "string" || name === "") return { state: "succeeded" };
  if (!(await findGraph(stores, name))) return { state: "failed", error: `Graph definition not found for ${name}` };
  return { state: "succeeded", thenStart: { name, options: sku.discoveryGraphOptions ?? {} } };
}
