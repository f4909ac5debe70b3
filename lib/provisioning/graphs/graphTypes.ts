import type { BaseTask, TaskKind } from "./baseTasks";

/** The shapes of RackHD's task and graph libraries, apart from the libraries that hold them. */

/** A task definition as RackHD's task library holds it (era B/C: concrete tasks only). */
export interface LibraryTask {
  friendlyName: string;
  injectableName: string;
  implementsTask: string;
  options: Record<string, unknown>;
  properties: Record<string, unknown>;
}

/** A concrete task joined with its base task: what a graph's task is built from. */
export interface TaskDefinition extends LibraryTask {
  runJob: string;
  kind: TaskKind;
  requiredOptions: readonly string[];
  requiredProperties: BaseTask["requiredProperties"];
}

/**
 * One task of a graph definition (RackHD §1.1): a library task by `taskName` or an inline
 * `taskDefinition`, the labels it waits on and the state each must end in, overrides of its
 * options. RackHD accepted an entry without a label (FIT defines one); labelOf names it.
 */
export interface GraphTaskEntry {
  label?: string;
  taskName?: string;
  taskDefinition?: LibraryTask;
  waitOn?: Record<string, string>;
  ignoreFailure?: boolean;
  optionOverrides?: Record<string, unknown>;
}

/** The entry's label, or for an unlabelled entry the name of its task. */
export const labelOf = (entry: GraphTaskEntry): string =>
  entry.label ?? entry.taskName ?? entry.taskDefinition?.injectableName ?? "undefined";

/**
 * A one-time network boot and the reset that starts it (`set-boot-pxe`, then `reboot` or the label
 * given): how every graph that boots the microkernel or an installer begins, after `waitOn` when
 * given. A BMC that cannot set the boot device is not a failure (the machine boots its own order);
 * a node set to virtual media boots its image there instead (relays/relayTasks.ts).
 */
export const pxeOnce = (waitOn?: Record<string, string>, reboot = "reboot"): GraphTaskEntry[] => [
  { label: "set-boot-pxe", taskName: "Task.Obm.Node.PxeBoot", ignoreFailure: true, ...(waitOn && { waitOn }) },
  { label: reboot, taskName: "Task.Obm.Node.Reboot", waitOn: { "set-boot-pxe": "finished" } },
];

/** A graph definition as RackHD's library serves it. */
export interface GraphDefinition {
  friendlyName: string;
  injectableName: string;
  options: Record<string, unknown>;
  tasks: GraphTaskEntry[];
}
