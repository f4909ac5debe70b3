import type { TaskKind } from "../graphs/baseTasks";
import { runObmAction } from "../obmServices/obmAction";
import type { ObmSetting } from "../obmServices/obmSetting";
import { failureOf, timeoutOf } from "./failure";
import { type FailureReason, isTerminal, type TaskState, type Workflow, type WorkflowTask } from "./workflow";

/**
 * Brings a workflow up to date at `now`. A Lambda function has no background and no timers, so
 * this runs whenever a workflow or its node is read or written: tasks whose dependencies are met
 * start (instant and OBM tasks finish at once, install tasks start waiting for the node), running
 * tasks past their `_taskTimeout` time out, and the graph's status follows its tasks. Pure: answers
 * the same object when nothing changed, else a new one.
 */
export function advanceWorkflow(workflow: Workflow, obmSettings: readonly ObmSetting[] | undefined, now: Date): Workflow {
  if (workflow._status !== "running") return workflow;
  const tasks: Record<string, WorkflowTask> = { ...workflow.tasks };
  let changed = false;
  const set = (id: string, patch: Partial<WorkflowTask>) => {
    tasks[id] = { ...tasks[id], ...patch };
    changed = true;
  };

  for (let progressed = true; progressed; ) {
    progressed = false;
    for (const [id, task] of Object.entries(tasks)) {
      if (task.state === "running") {
        const timeout = task.options._taskTimeout;
        if (typeof timeout === "number" && timeout > 0 && task.startedAt) {
          const deadline = Date.parse(task.startedAt) + timeout;
          if (now.getTime() >= deadline) {
            const at = new Date(deadline).toISOString();
            set(id, { state: "timeout", finishedAt: at, updatedAt: at, ...timeoutOf(task, timeout) });
            progressed = true;
          }
        }
        continue;
      }
      if (task.state !== "pending") continue;
      const readiness = dependencies(task, tasks);
      if (readiness === "waiting") continue;
      const stamp = now.toISOString();
      progressed = true;
      if (readiness === "unreachable") {
        set(id, { state: "cancelled", finishedAt: stamp, updatedAt: stamp, error: "A task it waited on did not end as required" });
      } else if (WAITING_KINDS.has(task.kind)) {
        set(id, { state: "running", startedAt: stamp, updatedAt: stamp });
      } else if (task.kind === "obm") {
        const outcome = runObmAction(String(task.options.action), task.options.obmServiceName, obmSettings);
        if (outcome.ok && outcome.relay) set(id, { state: "running", startedAt: stamp, updatedAt: stamp, relayJob: task.instanceId });
        else
          set(
            id,
            outcome.ok
              ? { state: "succeeded", startedAt: stamp, finishedAt: stamp, updatedAt: stamp }
              : { state: "failed", startedAt: stamp, finishedAt: stamp, updatedAt: stamp, error: outcome.error },
          );
      } else {
        set(id, { state: "succeeded", startedAt: stamp, finishedAt: stamp, updatedAt: stamp });
      }
    }
  }

  const next = settle({ ...workflow, tasks }, now);
  return changed || next._status !== workflow._status ? next : workflow;
}

/** Tasks that run until the node (install, bootstrap, microkernel) or the service (effect) ends them. */
const WAITING_KINDS = new Set<TaskKind>(["install", "bootstrap", "microkernel", "effect"]);

function dependencies(task: WorkflowTask, tasks: Record<string, WorkflowTask>): "ready" | "waiting" | "unreachable" {
  for (const [id, wanted] of Object.entries(task.waitingOn)) {
    const state = tasks[id]?.state;
    if (state === undefined) return "unreachable";
    if (!isTerminal(state)) return "waiting";
    if (wanted !== "finished" && wanted !== state) return "unreachable";
  }
  return "ready";
}

const FAILED: readonly TaskState[] = ["failed", "timeout", "cancelled"];

/** The graph fails as soon as a task without ignoreFailure fails (the rest are cancelled); it succeeds when all are done. */
function settle(workflow: Workflow, now: Date): Workflow {
  const tasks = Object.values(workflow.tasks);
  const stamp = now.toISOString();
  if (tasks.some((task) => FAILED.includes(task.state) && !task.ignoreFailure)) {
    const failure = failureOf(tasks, workflow.node);
    return { ...cancelUnfinished(workflow, now, "The graph failed"), _status: "failed", updatedAt: stamp, ...(failure && { failure }) };
  }
  if (tasks.every((task) => isTerminal(task.state))) return { ...workflow, _status: "succeeded", updatedAt: stamp };
  return workflow;
}

/** Every unfinished task becomes cancelled. */
export function cancelUnfinished(workflow: Workflow, now: Date, why: string): Workflow {
  const stamp = now.toISOString();
  const tasks: Record<string, WorkflowTask> = {};
  for (const [id, task] of Object.entries(workflow.tasks)) {
    tasks[id] = isTerminal(task.state) ? task : { ...task, state: "cancelled", finishedAt: stamp, updatedAt: stamp, error: why };
  }
  return { ...workflow, tasks, updatedAt: stamp };
}

/** DELETE .../workflows/active: the graph and its unfinished tasks become cancelled. */
export function cancelWorkflow(workflow: Workflow, now: Date): Workflow {
  const cancelled = cancelUnfinished(workflow, now, "Cancelled by request");
  const failure = failureOf(Object.values(cancelled.tasks), workflow.node);
  return { ...cancelled, _status: "cancelled", ...(failure && { failure: { ...failure, reason: "cancelled" as const } }) };
}

/** The running task of that kind, if any. */
export const runningTask = (workflow: Workflow, kind: TaskKind): WorkflowTask | undefined =>
  Object.values(workflow.tasks).find((task) => task.kind === kind && task.state === "running");

/** The install task that is waiting for its node, if any. */
export const waitingInstallTask = (workflow: Workflow): WorkflowTask | undefined => runningTask(workflow, "install");

/** The running task whose boot profile the node should get: an install, or the microkernel's bootstrap. */
export const bootingTask = (workflow: Workflow): WorkflowTask | undefined =>
  runningTask(workflow, "install") ?? runningTask(workflow, "bootstrap");

/** The workflow's tasks running on a relay job (a BMC action through the site's relay). */
export const relayTasksRunning = (workflow: Workflow): WorkflowTask[] =>
  Object.values(workflow.tasks).filter((task) => task.state === "running" && task.relayJob);

/** Ends a running task (succeeded or failed) and moves the graph on. */
export function finishTask(
  workflow: Workflow,
  taskId: string,
  outcome: { state: "succeeded" | "failed"; error?: string; reason?: FailureReason },
  obmSettings: readonly ObmSetting[] | undefined,
  now: Date,
): Workflow {
  const task = workflow.tasks[taskId];
  if (task?.state !== "running" || workflow._status !== "running") return workflow;
  const stamp = now.toISOString();
  const finished: WorkflowTask = {
    ...task,
    state: outcome.state,
    finishedAt: stamp,
    updatedAt: stamp,
    ...(outcome.error && { error: outcome.error }),
    ...(outcome.reason && { reason: outcome.reason }),
  };
  const next = { ...workflow, tasks: { ...workflow.tasks, [taskId]: finished }, updatedAt: stamp };
  return advanceWorkflow(withoutTaskSecrets(next, taskId), obmSettings, now);
}

/** The workflow without an ended task's secrets (and without the field once none is left). */
function withoutTaskSecrets(workflow: Workflow, taskId: string): Workflow {
  if (!workflow.taskSecrets || !Object.hasOwn(workflow.taskSecrets, taskId)) return workflow;
  const { [taskId]: _ended, ...left } = workflow.taskSecrets;
  const { taskSecrets: _all, ...rest } = workflow;
  return Object.keys(left).length > 0 ? { ...rest, taskSecrets: left } : rest;
}

/** The node signalled completion: its waiting install task succeeds, and the graph moves on. */
export function completeWaitingTask(workflow: Workflow, obmSettings: readonly ObmSetting[] | undefined, now: Date): Workflow {
  const current = advanceWorkflow(workflow, obmSettings, now);
  const task = waitingInstallTask(current);
  return task ? finishTask(current, task.instanceId, { state: "succeeded" }, obmSettings, now) : current;
}

/** What the machine did for a task that boots it, kept with its time (the console says where an install stopped). */
export type MachineStep = "bootedAt" | "templateFetchedAt" | "installerStartedAt" | "installedAt" | "firstBootAt";

/** The node fetched the waiting task's boot profile (`bootedAt`) or its install script (`templateFetchedAt`). */
export function markFromMachine(workflow: Workflow, taskId: string, step: MachineStep, now: Date): Workflow {
  const task = workflow.tasks[taskId];
  const stamp = now.toISOString();
  return { ...workflow, updatedAt: stamp, tasks: { ...workflow.tasks, [taskId]: { ...task, [step]: stamp, updatedAt: stamp } } };
}
