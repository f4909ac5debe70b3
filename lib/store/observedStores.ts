import { annotate, count } from "../invocation";
import type { NodeStore } from "../provisioning/nodes/nodeStore";
import type { Workflow, WorkflowStatus } from "../provisioning/workflowEngine/workflow";
import type { WorkflowStore } from "../provisioning/workflows/workflowStore";
import { overriding } from "./overriding";

/**
 * What operators follow a machine by, taken where the work meets its stores (so the domain stays
 * free of logging): the node and the workflow a request is about go on every later log line of
 * it (the first one it reads, finds or makes), and each workflow that starts or ends is counted
 * (WorkflowsStarted, WorkflowsSucceeded, WorkflowsFailed, WorkflowsTimedOut, WorkflowsCancelled).
 */

const ENDED: Readonly<Record<Exclude<WorkflowStatus, "running">, string>> = {
  succeeded: "WorkflowsSucceeded",
  failed: "WorkflowsFailed",
  timeout: "WorkflowsTimedOut",
  cancelled: "WorkflowsCancelled",
};

const aboutNode = <T extends { id: string; site?: unknown } | undefined>(node: T): T => {
  // Its site too: the audit trail records which site a change was on (lib/http/middleware/audit.ts).
  annotate({ nodeId: node?.id, siteId: typeof node?.site === "string" ? node.site : undefined });
  return node;
};

const aboutWorkflow = <T extends Workflow | undefined>(workflow: T): T => {
  annotate({ workflowId: workflow?.instanceId, nodeId: workflow?.node });
  return workflow;
};

export function observedNodes(nodes: NodeStore): NodeStore {
  return overriding(nodes, {
    get: async (id: string) => aboutNode(await nodes.get(id)),
    find: async (identifier: string) => aboutNode(await nodes.find(identifier)),
    create: async (node: Parameters<NodeStore["create"]>[0]) => aboutNode(await nodes.create(node)),
  });
}

export function observedWorkflows(workflows: WorkflowStore): WorkflowStore {
  return overriding(workflows, {
    get: async (id: string) => aboutWorkflow(await workflows.get(id)),
    activeForNode: async (nodeId: string) => aboutWorkflow(await workflows.activeForNode(nodeId)),
    create: async (workflow: Workflow) => {
      const created = aboutWorkflow(await workflows.create(workflow));
      count("WorkflowsStarted");
      return created;
    },
    update: async (instanceId: string, change: (current: Workflow) => Workflow, known?: Workflow) => {
      // The status the change found (the last try's, should the store retry it on a conflict).
      let before: WorkflowStatus | undefined;
      const tracked = (current: Workflow) => {
        before = current._status;
        return change(current);
      };
      const after = await workflows.update(instanceId, tracked, known);
      if (after && before === "running" && after._status !== "running") count(ENDED[after._status]);
      return aboutWorkflow(after);
    },
  });
}
