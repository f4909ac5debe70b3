import type { Node } from "./nodes/node";
import { redact } from "./secrets";
import type { Workflow, WorkflowTask } from "./workflows/workflow";

/** A node as RackHD 1.1 answered it (workflows/catalogs are associations rendered empty), secrets redacted. */
export const presentNode = (node: Node): Record<string, unknown> => redact({ ...node, workflows: [], catalogs: [] });

/** A workflow record, era-C shape, without this implementation's internal `kind`, secrets redacted. */
export function presentWorkflow(workflow: Workflow): Record<string, unknown> {
  const tasks: Record<string, Omit<WorkflowTask, "kind">> = {};
  for (const [id, { kind: _kind, ...task }] of Object.entries(workflow.tasks)) tasks[id] = task;
  return redact({ ...workflow, tasks });
}
