/**
 * RackHD's base tasks (on-tasks `lib/task-data/base-tasks`): what a concrete task implements. A
 * base task names the job that runs it (`runJob`), the options every task built on it must have
 * after resolution, and the properties an earlier task of the graph must supply. `kind` says how
 * this implementation runs the job:
 * - `obm`: an OBM action (set PXE boot, reboot, power on/off), done at once through the node's
 *   OBM service (only noop can be driven from a Lambda function);
 * - `install`: serves a boot profile to the node and waits for it to signal completion;
 * - `instant`: succeeds at once (noop, and steps that need no work here).
 * Base tasks are not served by the task library (era B/C) and cannot be defined over the API.
 */
export type TaskKind = "obm" | "install" | "instant";

export interface BaseTask {
  friendlyName: string;
  injectableName: string;
  runJob: string;
  kind: TaskKind;
  /** Option keys that must be truthy after option resolution. */
  requiredOptions: readonly string[];
  /** Dotted property path → the value an earlier task of the graph must supply. */
  requiredProperties: Readonly<Record<string, unknown>>;
  properties: Readonly<Record<string, unknown>>;
}

const base = (
  injectableName: string,
  friendlyName: string,
  runJob: string,
  kind: TaskKind,
  requiredOptions: string[] = [],
  properties: Record<string, unknown> = {},
  requiredProperties: Record<string, unknown> = {},
): BaseTask => ({ friendlyName, injectableName, runJob, kind, requiredOptions, requiredProperties, properties });

export const BASE_TASKS: readonly BaseTask[] = [
  base("Task.Base.Obm.Node", "Base Obm Task", "Job.Obm.Node", "obm", ["action"], { power: {} }),
  base("Task.Base.Os.Install", "Install OS", "Job.Os.Install", "install", ["profile", "completionUri"], { os: { type: "install" } }),
  // RackHD fetches the repository to learn the installer's layout; this implementation uses the
  // standard ESXi layout, so the step has nothing to do and succeeds at once.
  base("Task.Base.Os.Analyze.Repo", "Analyze OS Repository", "Job.Os.Analyze.Repo", "instant"),
  base("Task.Base.noop", "base-noop", "Job.noop", "instant"),
];

const byName = new Map(BASE_TASKS.map((task) => [task.injectableName, task]));

export const baseTask = (name: string): BaseTask | undefined => byName.get(name);
