import { isDomainError, NotFoundError, ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import { type ApiContext, apiContextFor } from "../apiContext";
import { newBootToken } from "../bootToken";
import { findGraph, taskFinder } from "../graphs/libraryService";
import { filteredPage, type Page, type PageRequest } from "../listPage";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import { end as endAction } from "../nodes/provisionState";
import type { StoresOf } from "../ports";
import { assertRecordFits, fitsKey } from "../recordSize";
import { buildWorkflow } from "../workflowEngine/buildWorkflow";
import {
  advanceWorkflow,
  cancelWorkflow,
  completeWaitingTask,
  finishTask,
  relayTasksRunning,
  runningTask,
} from "../workflowEngine/progress";
import { ACTIVE_CONFLICT, NO_NODE, type Workflow, workflowPosition } from "../workflowEngine/workflow";
import { taskKinds } from "./taskKinds";

/**
 * The stores moving a workflow on may touch: its own, its node, and those its service task kinds
 * may (workflows/taskKinds.ts: an effect's SKU, tags, pollers, catalogs and graphs; a relay job). A
 * function that moves workflows on takes these and its own.
 */
export type WorkflowStores = StoresOf<
  "catalogs" | "definitions" | "lookups" | "nodes" | "pollers" | "relayJobs" | "skus" | "tags" | "workflows"
>;

/**
 * Brings a stored workflow up to date (time-outs, instant steps) and stores the result. Whether
 * anything changes does not depend on the node's OBM settings (a ready OBM task changes state
 * either way), so a workflow with nothing to do costs no read of its node and no write.
 */
export async function refreshWorkflow(stores: WorkflowStores, workflow: Workflow, now: Date): Promise<Workflow> {
  const waitsOnService = runningTask(workflow, "effect") || relayTasksRunning(workflow).length > 0;
  if (advanceWorkflow(workflow, undefined, now) === workflow && !waitsOnService) return workflow;
  const node = await stores.nodes.get(workflow.node);
  const advance = (current: Workflow) => advanceWorkflow(current, node?.obmSettings, now);
  return settleEffects(stores, (await stores.workflows.update(workflow.instanceId, advance, workflow)) ?? workflow, now);
}

/** A graph an effect task named, to start once its workflow has ended. */
interface FollowOn {
  name: string;
  options: Record<string, unknown>;
  taskId: string;
}

/**
 * Does the work of the effect tasks that are ready (discovery/effects.ts), one after another,
 * storing each outcome as it goes; a graph one of them names (run-sku-graph) starts on the node
 * once this workflow has ended. Called wherever a workflow moves on, so no effect waits for a timer.
 */
export async function settleEffects(stores: WorkflowStores, workflow: Workflow, now: Date): Promise<Workflow> {
  let current = workflow;
  const follow: FollowOn[] = [];
  // Each round ends one task, so there are at most as many rounds as tasks.
  for (let round = Object.keys(current.tasks).length; round > 0; round -= 1) {
    const task = current._status === "running" ? runningTask(current, "effect") : undefined;
    const node = task && (await stores.nodes.get(current.node));
    if (!task || !node) break;
    const outcome = await taskKinds().effect(stores, node, task, now, current.taskSecrets?.[task.instanceId]);
    if (outcome.thenStart) follow.push({ ...outcome.thenStart, taskId: task.instanceId });
    const finish = (stored: Workflow) => finishTask(stored, task.instanceId, outcome, node.obmSettings, now);
    current = (await stores.workflows.update(current.instanceId, finish, current)) ?? current;
  }
  current = await settleRelayTasks(stores, current, now);
  await settleProvisionState(stores, current, now);
  for (const graph of follow) await startFollowOn(stores, current, graph, now);
  return current;
}

/**
 * Moves the node's provision state once the life-cycle action this workflow carries out has ended
 * (nodes/provisionState.ts): to the action's end state, or `failed` with the step and the reason.
 * Called wherever a workflow may end; the node is read first, so a workflow that ended long ago
 * (or whose node has moved on) costs a read and no write.
 */
export async function settleProvisionState(stores: StoresOf<"nodes">, workflow: Workflow, now: Date): Promise<void> {
  const lifecycle = workflow.lifecycle;
  if (!lifecycle || workflow._status === "running") return;
  const failure = workflow.failure && { task: workflow.failure.task, reason: workflow.failure.reason, message: workflow.failure.message };
  const outcome = { status: workflow._status, workflowId: workflow.instanceId, ...(failure && { failure }) };
  const node = await stores.nodes.get(workflow.node);
  if (!node || !endAction(node, lifecycle, outcome, now)) return;
  await stores.nodes.update(
    node.id,
    (current) => {
      const ended = endAction(current, lifecycle, outcome, now);
      return ended ? { ...current, ...ended, updatedAt: now.toISOString() } : current;
    },
    node,
  );
}

/**
 * Queues the relay jobs of its running OBM tasks and ends those whose job has ended, round after
 * round: a task ended (set-boot-pxe) may start the next (reboot), whose job is then queued.
 */
async function settleRelayTasks(
  stores: StoresOf<"catalogs" | "nodes" | "relayJobs" | "workflows">,
  workflow: Workflow,
  now: Date,
): Promise<Workflow> {
  let current = workflow;
  for (let round = Object.keys(current.tasks).length; round > 0 && current._status === "running"; round -= 1) {
    // Most moves of a workflow have no relay job running: they read no node for it.
    if (relayTasksRunning(current).length === 0) break;
    const node = await stores.nodes.get(current.node);
    if (!node) break;
    const outcomes = await taskKinds().relay(stores, current, node, now);
    if (outcomes.length === 0) break;
    const finish = (stored: Workflow) =>
      outcomes.reduce((state, outcome) => finishTask(state, outcome.taskId, outcome, node.obmSettings, now), stored);
    current = (await stores.workflows.update(current.instanceId, finish, current)) ?? current;
  }
  return current;
}

/**
 * Starts the graph a finished workflow named on its node. Should it not start (the node busy
 * again, say), the task that named it says why: that workflow is over, so nothing else can.
 */
async function startFollowOn(stores: WorkflowStores, after: Workflow, graph: FollowOn, now: Date): Promise<void> {
  const servers = after.servers ?? { api: "", files: "" };
  try {
    await startWorkflow(stores, after.node, graph, apiContextFor(servers.api, servers.files), now);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const note = `The graph ${graph.name} did not start: ${error.message}`;
    const annotate = (stored: Workflow): Workflow => {
      const task = stored.tasks[graph.taskId];
      return task ? { ...stored, tasks: { ...stored.tasks, [graph.taskId]: { ...task, error: note } } } : stored;
    };
    await stores.workflows.update(after.instanceId, annotate, after);
  }
}

const refreshAll = (stores: WorkflowStores, workflows: Workflow[], now: Date) =>
  Promise.all(workflows.map((workflow) => refreshWorkflow(stores, workflow, now)));

export async function activeWorkflowOf(stores: WorkflowStores, node: Node, now: Date): Promise<Workflow | undefined> {
  const active = await stores.workflows.activeForNode(node.id);
  if (!active) return undefined;
  const current = await refreshWorkflow(stores, active, now);
  return current._status === "running" ? current : undefined;
}

export interface StartRequest {
  name: unknown;
  options: unknown;
  /** The node's life-cycle action the workflow carries out (lifecycle/actionService.ts), if any. */
  lifecycle?: Workflow["lifecycle"];
}

/**
 * POST /nodes/{id}/workflows, checks in RackHD's order: name (400), node (404), graph (404), an
 * active workflow on the node (400), options (400). `?name=` wins over the body's name.
 */
export async function startWorkflow(
  stores: WorkflowStores,
  identifier: string,
  request: StartRequest,
  api: ApiContext,
  now: Date,
  /**
   * The node, when this request has just created it (discovery): it is not read again, nor its
   * active workflow, which it cannot have yet (the create's condition on the node's one active
   * slot still holds against a race).
   */
  created?: Node,
): Promise<Workflow> {
  if (typeof request.name !== "string" || request.name === "") throw new ValidationError("Graph name is missing or in wrong format");
  const node = created ?? (await findNode(stores, identifier));
  const graph = await findGraph(stores, request.name);
  if (!graph) throw new NotFoundError(`Graph definition not found for ${request.name}`);
  if (!created && (await activeWorkflowOf(stores, node, now))) throw new ValidationError(ACTIVE_CONFLICT);
  const options = request.options ?? {};
  if (!isPlainObject(options)) throw new ValidationError("options must be a JSON object");
  const built: Workflow = {
    ...buildWorkflow(graph, options, node.id, api, now, await taskFinder(stores)),
    bootToken: newBootToken(),
    ...(request.lifecycle && { lifecycle: request.lifecycle }),
  };
  const workflow = advanceWorkflow(built, node.obmSettings, now);
  assertRecordFits(workflow, "workflow");
  try {
    return await settleEffects(stores, await stores.workflows.create(workflow), now);
  } catch (error) {
    // Another request started one first: the same answer as the check above.
    if (isDomainError(error) && error.kind === "conflict") throw new ValidationError(ACTIVE_CONFLICT);
    throw error;
  }
}

/**
 * POST /workflows (RackHD era B/C): a graph run with no node, which only a graph whose every task
 * needs no machine can be (noop and the like: 400 naming the first task that needs one). Such a
 * graph ends as it starts, so it never holds a node's one active slot.
 */
export async function runGraph(
  stores: StoresOf<"definitions" | "workflows">,
  request: StartRequest,
  api: ApiContext,
  now: Date,
): Promise<Workflow> {
  if (typeof request.name !== "string" || request.name === "") throw new ValidationError("Graph name is missing or in wrong format");
  const graph = await findGraph(stores, request.name);
  if (!graph) throw new NotFoundError(`Graph definition not found for ${request.name}`);
  const options = request.options ?? {};
  if (!isPlainObject(options)) throw new ValidationError("options must be a JSON object");
  const built = buildWorkflow(graph, options, NO_NODE, api, now, await taskFinder(stores));
  const needy = Object.values(built.tasks).find((task) => task.kind !== "instant");
  if (needy) {
    throw new ValidationError(
      `Graph ${graph.injectableName} needs a node: its task ${needy.label} (${needy.injectableName}) runs on one; use POST /nodes/{identifier}/workflows`,
    );
  }
  const workflow = advanceWorkflow(built, [], now);
  assertRecordFits(workflow, "workflow");
  return stores.workflows.create(workflow);
}

export async function listWorkflows(stores: WorkflowStores, filter: { active?: boolean }, now: Date): Promise<Workflow[]> {
  const all = await refreshAll(stores, await stores.workflows.list(), now);
  return filter.active === undefined ? all : all.filter((workflow) => (workflow._status === "running") === filter.active);
}

/**
 * A page of that list, read alone. Each workflow read is brought up to date first (as the whole
 * list's are), so that `active` filters what the workflow is now; at most FILTER_READ_CAP read.
 */
export function listWorkflowsPage(
  stores: WorkflowStores,
  filter: { active?: boolean },
  request: PageRequest,
  now: Date,
): Promise<Page<Workflow>> {
  return filteredPage(
    async (part) => {
      const page = await stores.workflows.page(part);
      return { ...page, items: await refreshAll(stores, page.items, now) };
    },
    (workflow) => filter.active === undefined || (workflow._status === "running") === filter.active,
    workflowPosition,
    request,
  );
}

export async function getWorkflow(stores: WorkflowStores, id: string, now: Date): Promise<Workflow> {
  const workflow = fitsKey(id) ? await stores.workflows.get(id) : undefined;
  if (!workflow) throw new NotFoundError(`Could not find workflow with identifier ${id}`);
  return refreshWorkflow(stores, workflow, now);
}

export async function nodeWorkflows(stores: WorkflowStores, identifier: string, now: Date): Promise<Workflow[]> {
  const node = await findNode(stores, identifier);
  return refreshAll(stores, await stores.workflows.listForNode(node.id), now);
}

/** A page of a node's workflows, read alone. */
export async function nodeWorkflowsPage(
  stores: WorkflowStores,
  identifier: string,
  request: PageRequest,
  now: Date,
): Promise<Page<Workflow>> {
  const node = await findNode(stores, identifier);
  const page = await stores.workflows.pageForNode(node.id, request);
  return { ...page, items: await refreshAll(stores, page.items, now) };
}

/** Undefined when the node has no active workflow (the route answers 204). */
export async function nodeActiveWorkflow(stores: WorkflowStores, identifier: string, now: Date): Promise<Workflow | undefined> {
  return activeWorkflowOf(stores, await findNode(stores, identifier), now);
}

export async function cancelNodeWorkflow(stores: WorkflowStores, identifier: string, now: Date): Promise<Workflow> {
  const node = await findNode(stores, identifier);
  const active = await activeWorkflowOf(stores, node, now);
  const cancel = (current: Workflow) => (current._status === "running" ? cancelWorkflow(current, now) : current);
  const cancelled = active && (await stores.workflows.update(active.instanceId, cancel, active));
  if (cancelled?._status !== "cancelled") throw new NotFoundError(`No active workflow graph found for node ${identifier}`);
  await settleProvisionState(stores, cancelled, now);
  return cancelled;
}

/**
 * The node says its install is done (notification, or a request to the completionUri). `known`,
 * the active workflow as just read, saves reading it again.
 */
export async function completeNodeInstall(stores: WorkflowStores, node: Node, now: Date, known?: Workflow): Promise<Workflow | undefined> {
  const active = known ?? (await stores.workflows.activeForNode(node.id));
  if (!active) return undefined;
  const completed = await stores.workflows.update(
    active.instanceId,
    (current) => completeWaitingTask(current, node.obmSettings, now),
    active,
  );
  return completed && settleEffects(stores, completed, now);
}
