import type { Node } from "../../provisioning/nodes/node";
import { stateOf } from "../../provisioning/nodes/provisionState";
import { redact } from "../../provisioning/secrets";
import type { Sku } from "../../provisioning/skus/sku";
import { NO_NODE, type Workflow, type WorkflowTask } from "../../provisioning/workflowEngine/workflow";

/**
 * A node as RackHD 1.1 answered it (workflows/catalogs are associations rendered empty), secrets
 * redacted, with its provision state always (`discovered` for one stored before states were).
 */
export const presentNode = (node: Node): Record<string, unknown> =>
  redact({ ...node, provisionState: stateOf(node), workflows: [], catalogs: [] });

/** A SKU, its discovery graph's options with their secrets redacted (a BMC password a SKU gives its machines). */
export const presentSku = (sku: Sku): Sku => redact(sku);

/**
 * A workflow record, era-C shape, without this implementation's internal `kind`. Stored workflows
 * hold no plain password (buildWorkflow redacts every option and turns install passwords into
 * crypt hashes), so only the options, where the hashes are, go through redaction: the whole
 * record is not copied for it (that copy was most of the cost of reading a workflow).
 */
export function presentWorkflow({
  bootToken: _token,
  servers: _servers,
  userData: _userData,
  taskSecrets: _taskSecrets,
  ...workflow
}: Workflow): Record<string, unknown> {
  const tasks: Record<string, Omit<WorkflowTask, "kind">> = {};
  for (const [id, { kind: _kind, ...task }] of Object.entries(workflow.tasks)) {
    tasks[id] = { ...task, options: redact(task.options) };
  }
  if (workflow.node !== NO_NODE) return { ...workflow, tasks };
  // A graph run with no node (POST /workflows): RackHD's record has no target.
  const { node: _node, context, ...rest } = workflow;
  return { ...rest, context: { graphId: context.graphId }, tasks };
}
