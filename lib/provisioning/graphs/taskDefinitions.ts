/**
 * The built-in task definitions (RackHD on-tasks `lib/task-data/tasks`, era A/B): concrete tasks,
 * each implementing a base task (baseTasks.ts) that says how it runs.
 */
import { deepMerge } from "../../json";
import { baseTask } from "./baseTasks";
import { CLOUD_INIT_TASKS } from "./cloudInitTasks";
import { DISCOVERY_TASKS } from "./discoveryTasks";
import type { GraphTaskEntry, LibraryTask, TaskDefinition } from "./graphTypes";
import { installTask } from "./installTask";
import { LIFECYCLE_TASKS } from "./lifecycleGraphs";

/** Finds a library task by injectableName (the built-in ones, or the library a caller holds). */
export type TaskFinder = (name: string) => LibraryTask | undefined;

const obmTask = (injectableName: string, friendlyName: string, action: string): LibraryTask => ({
  friendlyName,
  injectableName,
  implementsTask: "Task.Base.Obm.Node",
  // obmServiceName: null means "the node's single OBM setting" (RackHD era C).
  options: { action, obmServiceName: null },
  properties: { power: {} },
});

const BUILT_IN_TASKS: readonly LibraryTask[] = [
  obmTask("Task.Obm.Node.PxeBoot", "Set PXE boot", "setBootPxe"),
  obmTask("Task.Obm.Node.Reboot", "Reboot Node", "reboot"),
  obmTask("Task.Obm.Node.PowerOn", "Power On Node", "powerOn"),
  obmTask("Task.Obm.Node.PowerOff", "Power Off Node", "powerOff"),
  // Not RackHD's: unrescue boots the node from its disk once (the relay's bootDevice job, device disk).
  obmTask("Task.Obm.Node.DiskBoot", "Set disk boot", "setBootDisk"),
  // Not RackHD's: takes a virtual media image out of a Redfish BMC's virtual CD (issue 53).
  obmTask("Task.Obm.Node.EjectMedia", "Eject virtual media", "ejectMedia"),
  // Through a Redfish BMC (issue 53): the BIOS attributes and boot order, the firmware inventory,
  // read into the node's catalogs (redfish-bios, redfish-firmware); BIOS attributes set for the next reset.
  obmTask("Task.Redfish.Catalog.Bios", "Read the BIOS attributes and boot order", "readBios"),
  obmTask("Task.Redfish.Catalog.Firmware", "Read the firmware inventory", "readFirmware"),
  {
    ...obmTask("Task.Redfish.Bios.Set", "Set BIOS attributes (at the next reset)", "setBios"),
    options: { action: "setBios", obmServiceName: null, attributes: null },
  },
  {
    friendlyName: "Create IPMI OBM settings",
    injectableName: "Task.Obm.Ipmi.CreateSettings",
    implementsTask: "Task.Base.Obm.Ipmi.CreateSettings",
    // RackHD's defaults took the user from the graph's context, else "monorail": a guess. Here both
    // come from the graph's context or options, and the task fails when either is missing.
    options: { ipmichannel: null, user: "{{ context.user }}", password: "{{ context.password }}" },
    properties: {},
  },
  installTask(
    "Task.Os.Install.CentOS",
    "Install CentOS",
    { linux: { distribution: "centos" } },
    {
      profile: "install-centos.ipxe",
      completionUri: "renasar-ansible.pub",
      installScript: "centos-ks",
    },
  ),
  installTask(
    "Task.Os.Install.Ubuntu",
    "Install Ubuntu",
    { linux: { distribution: "ubuntu" } },
    {
      profile: "install-trusty.ipxe",
      completionUri: "renasar-ansible.pub",
      installScript: "ubuntu-preseed",
      version: "trusty",
      repo: "{{api.server}}/ubuntu",
    },
  ),
  installTask(
    "Task.Os.Install.CoreOS",
    "Install CoreOS",
    { linux: { distribution: "coreos" } },
    {
      profile: "install-coreos.ipxe",
      completionUri: "pxe-cloud-config.yml",
      installScript: "pxe-cloud-config.yml",
      version: "current",
      repo: "{{api.server}}/coreos",
    },
  ),
  installTask(
    "Task.Os.Install.Esx",
    "Install Esx",
    { esx: {} },
    {
      osType: "esx",
      profile: "install-esx.ipxe",
      completionUri: "esx-ks",
      installScript: "esx-ks",
      comport: "com1",
      installDisk: "firstdisk",
    },
  ),
  {
    friendlyName: "Analyze Esx Repository",
    injectableName: "Task.Os.Esx.Analyze.Repo",
    implementsTask: "Task.Base.Os.Analyze.Repo",
    options: { osName: "esx", repo: null, version: null },
    properties: {},
  },
  {
    friendlyName: "noop",
    injectableName: "Task.noop",
    implementsTask: "Task.Base.noop",
    options: { option1: 1, option2: 2, option3: 3, delay: 0 },
    properties: {},
  },
  ...CLOUD_INIT_TASKS,
  ...DISCOVERY_TASKS,
  ...LIFECYCLE_TASKS,
];

/**
 * The task joined with its base task (RackHD §1.3: the base's properties under the task's, the
 * base's job and required options); undefined when no base task of that name exists.
 */
export function resolveTask(task: LibraryTask | undefined): TaskDefinition | undefined {
  const base = task ? baseTask(task.implementsTask) : undefined;
  if (!task || !base) return undefined;
  return {
    ...task,
    runJob: base.runJob,
    kind: base.kind,
    requiredOptions: base.requiredOptions,
    requiredProperties: base.requiredProperties,
    properties: deepMerge(base.properties, task.properties) as Record<string, unknown>,
  };
}

/** The built-in tasks, in RackHD's library shape: how this implementation runs one stays in its base task. */
export const TASK_LIBRARY: readonly LibraryTask[] = BUILT_IN_TASKS;

const byName = new Map(BUILT_IN_TASKS.map((task) => [task.injectableName, task]));

export const builtInTask: TaskFinder = (name) => byName.get(name);

/** A built-in task, joined with its base task. */
export const taskDefinition = (name: string): TaskDefinition | undefined => resolveTask(byName.get(name));

/** The task an entry runs: its inline definition, or the library task it names. */
export const entryTask = (entry: GraphTaskEntry, tasks: TaskFinder): TaskDefinition | undefined =>
  resolveTask(entry.taskDefinition ?? (typeof entry.taskName === "string" ? tasks(entry.taskName) : undefined));
