/**
 * The task definitions the graph library uses (RackHD on-tasks `lib/task-data`, era A/B). `kind`
 * says how this implementation runs the task:
 * - `obm`: an OBM action (set PXE boot, reboot, power on/off), done at once through the node's
 *   OBM service (only noop can be driven from a Lambda function);
 * - `install`: serves a boot profile to the node and waits for it to signal completion;
 * - `instant`: succeeds at once (noop, and steps that need no work here).
 */
export type TaskKind = "obm" | "install" | "instant";

export interface TaskDefinition {
  friendlyName: string;
  injectableName: string;
  implementsTask: string;
  runJob: string;
  kind: TaskKind;
  /** Keys that must be truthy after option resolution. */
  requiredOptions: string[];
  options: Record<string, unknown>;
  properties: Record<string, unknown>;
}

const obmTask = (injectableName: string, friendlyName: string, action: string): TaskDefinition => ({
  friendlyName,
  injectableName,
  implementsTask: "Task.Base.Obm.Node",
  runJob: "Job.Obm.Node",
  kind: "obm",
  requiredOptions: ["action"],
  // obmServiceName: null means "the node's single OBM setting" (RackHD era C).
  options: { action, obmServiceName: null },
  properties: { power: {} },
});

const installTask = (
  injectableName: string,
  friendlyName: string,
  os: Record<string, unknown>,
  options: Record<string, unknown>,
): TaskDefinition => ({
  friendlyName,
  injectableName,
  implementsTask: "Task.Base.Os.Install",
  runJob: "Job.Os.Install",
  kind: "install",
  requiredOptions: ["profile", "completionUri"],
  options: {
    osType: "linux",
    version: null,
    repo: null,
    rootPassword: "RackHDRocks!",
    rootSshKey: null,
    hostname: "localhost",
    comport: "ttyS0",
    // Which console the installer uses: "serial" (comport, named last on the kernel command line)
    // or "screen" (tty0 last). Not a RackHD option: RackHD put the screen last for CentOS.
    console: "serial",
    domain: "rackhd",
    users: [],
    networkDevices: [],
    dnsServers: [],
    installDisk: null,
    kvm: false,
    ...options,
  },
  properties: { os: { ...os, type: "install" } },
});

const DEFINITIONS: TaskDefinition[] = [
  obmTask("Task.Obm.Node.PxeBoot", "Set PXE boot", "setBootPxe"),
  obmTask("Task.Obm.Node.Reboot", "Reboot Node", "reboot"),
  obmTask("Task.Obm.Node.PowerOn", "Power On Node", "powerOn"),
  obmTask("Task.Obm.Node.PowerOff", "Power Off Node", "powerOff"),
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
    runJob: "Job.Os.Analyze.Repo",
    // RackHD fetches the repository to learn the installer's layout; this implementation uses the
    // standard ESXi layout, so the step has nothing to do and succeeds at once.
    kind: "instant",
    requiredOptions: [],
    options: { osName: "esx", repo: null, version: null },
    properties: {},
  },
  {
    friendlyName: "noop",
    injectableName: "Task.noop",
    implementsTask: "Task.Base.noop",
    runJob: "Job.noop",
    kind: "instant",
    requiredOptions: [],
    options: { option1: 1, option2: 2, option3: 3, delay: 0 },
    properties: {},
  },
];

const byName = new Map(DEFINITIONS.map((definition) => [definition.injectableName, definition]));

export const taskDefinition = (name: string): TaskDefinition | undefined => byName.get(name);

/** A task definition as RackHD's task library answers it (era B/C: concrete tasks only). */
export interface LibraryTask {
  friendlyName: string;
  injectableName: string;
  implementsTask: string;
  options: Record<string, unknown>;
  properties: Record<string, unknown>;
}

/** The task library, in RackHD's shape: how this implementation runs a task (`kind`, `runJob`) stays inside. */
export const TASK_LIBRARY: readonly LibraryTask[] = DEFINITIONS.map(
  ({ friendlyName, injectableName, implementsTask, options, properties }) => ({
    friendlyName,
    injectableName,
    implementsTask,
    options,
    properties,
  }),
);
