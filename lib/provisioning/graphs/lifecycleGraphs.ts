import { type GraphDefinition, type GraphTaskEntry, type LibraryTask, pxeOnce } from "./graphTypes";

/**
 * The graphs a node's life-cycle actions run (issue 53, nodes/provisionState.ts), and the tasks
 * only they use. They are library graphs like any other: an operator may read them, and run one
 * directly (it then moves no provision state: only an action's workflow does).
 */

/** The erase methods a release may ask for (docs/lifecycle.md says what each does and does not guarantee). */
export const ERASE_MODES = ["quick", "full"] as const;
export type EraseMode = (typeof ERASE_MODES)[number];

/**
 * The microkernel's commands are a fixed set it knows by their text (microkernel/init.sh runs
 * nothing else): an option reaches them only as one of these words, or as base64 (the rescue key).
 */
export const ERASE_COMMAND = "erase-disks";
export const RESCUE_COMMAND = "rescue-ssh";
/** The erase report's catalog source: per disk, the method, bytes, time and the device's answer. */
export const ERASE_CATALOG = "erase";

export const LIFECYCLE_TASKS: readonly LibraryTask[] = [
  {
    friendlyName: "Erase every disk",
    injectableName: "Task.Linux.EraseDisks",
    implementsTask: "Task.Base.Linux.Commands",
    options: {
      mode: "quick",
      commands: [{ command: `${ERASE_COMMAND} {{options.mode}}`, catalog: { format: "json", source: ERASE_CATALOG } }],
      _taskTimeout: 6 * 3_600_000,
    },
    properties: {},
  },
  {
    friendlyName: "SSH into the microkernel with the operator's key",
    injectableName: "Task.Linux.RescueSsh",
    implementsTask: "Task.Base.Linux.Commands",
    options: { sshKeyBase64: null, commands: [`${RESCUE_COMMAND} {{options.sshKeyBase64}}`] },
    properties: {},
  },
  {
    friendlyName: "Power off (from the microkernel)",
    injectableName: "Task.ProcShellPowerOff",
    implementsTask: "Task.Base.ShellReboot",
    options: { commands: ["sudo poweroff"] },
    properties: { power: { state: "off" } },
  },
];

const bootMicrokernel: GraphTaskEntry[] = [
  ...pxeOnce(),
  { label: "bootstrap-ubuntu", taskName: "Task.Linux.Bootstrap.Ubuntu", waitOn: { reboot: "succeeded" } },
];

/** An action with nothing to do on the machine: one step, so that it has its workflow, timeline and events as every action does. */
const record = (injectableName: string, friendlyName: string, label: string): GraphDefinition => ({
  friendlyName,
  injectableName,
  options: {},
  tasks: [{ label, taskName: "Task.noop" }],
});

export const LIFECYCLE_GRAPHS: readonly GraphDefinition[] = [
  record("Graph.Lifecycle.Provide", "Make a node ready", "provide"),
  record("Graph.Lifecycle.Allocate", "Allocate a node", "allocate"),
  record("Graph.Lifecycle.Deallocate", "Deallocate a node", "deallocate"),
  {
    friendlyName: "Release a node: erase its disks",
    injectableName: "Graph.Lifecycle.Release",
    options: { "erase-disks": { mode: "quick" } },
    tasks: [
      ...bootMicrokernel,
      { label: "erase-disks", taskName: "Task.Linux.EraseDisks", waitOn: { "bootstrap-ubuntu": "succeeded" } },
      { label: "power-off", taskName: "Task.ProcShellPowerOff", waitOn: { "erase-disks": "succeeded" } },
    ],
  },
  {
    friendlyName: "Rescue a node: the microkernel with SSH",
    injectableName: "Graph.Lifecycle.Rescue",
    options: {},
    tasks: [...bootMicrokernel, { label: "rescue-ssh", taskName: "Task.Linux.RescueSsh", waitOn: { "bootstrap-ubuntu": "succeeded" } }],
  },
  {
    friendlyName: "Boot a rescued node from its disk",
    injectableName: "Graph.Lifecycle.Unrescue",
    options: {},
    tasks: [
      { label: "set-boot-disk", taskName: "Task.Obm.Node.DiskBoot", ignoreFailure: true },
      { label: "reboot", taskName: "Task.Obm.Node.Reboot", waitOn: { "set-boot-disk": "finished" } },
    ],
  },
  {
    friendlyName: "Retire a node: power it off",
    injectableName: "Graph.Lifecycle.Retire",
    options: {},
    tasks: [{ label: "power-off", taskName: "Task.Obm.Node.PowerOff" }],
  },
];
