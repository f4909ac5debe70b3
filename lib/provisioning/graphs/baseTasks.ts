/**
 * RackHD's base tasks (on-tasks `lib/task-data/base-tasks`): what a concrete task implements. A
 * base task names the job that runs it (`runJob`), the options every task built on it must have
 * after resolution, and the properties an earlier task of the graph must supply. `kind` says how
 * this implementation runs the job:
 * - `obm`: an OBM action (set PXE boot, reboot, power on/off), done at once through the node's
 *   OBM service (only noop can be driven from a Lambda function);
 * - `install`: serves a boot profile to the node and waits for it to signal completion;
 * - `instant`: succeeds at once (noop, and steps that need no work here);
 * - `bootstrap`: serves the microkernel's boot profile; succeeds when the microkernel first asks
 *   for commands (RackHD's bootstrap without a trigger group);
 * - `microkernel`: hands its commands to the node's microkernel (GET /tasks/{id}) and ends with the
 *   results it posts back (POST /tasks/{id}), which become catalogs;
 * - `effect`: a step on the service's own records (SKU, tags, the SKU's graph), done by the
 *   service as soon as the task is ready.
 * Base tasks are not served by the task library (era B/C) and cannot be defined over the API.
 */
export type TaskKind = "obm" | "install" | "instant" | "bootstrap" | "microkernel" | "effect";

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

/** What RackHD's microkernel tasks require of an earlier task: the node runs the microkernel. */
const MICROKERNEL = { "os.linux.type": "microkernel" };

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
  // Today's installs (cloud-init): their image or repository is checked when a workflow starts (installOptions.ts).
  base("Task.Base.Os.Install.Image", "Install a disk image", "Job.Os.Install", "install", ["profile", "installScript"], {
    os: { type: "install" },
  }),
  base("Task.Base.Os.Install.Repo", "Install OS from a repository", "Job.Os.Install", "install", ["profile"], { os: { type: "install" } }),
  // RackHD fetches the repository to learn the installer's layout; this implementation uses the
  // standard ESXi layout, so the step has nothing to do and succeeds at once.
  base("Task.Base.Os.Analyze.Repo", "Analyze OS Repository", "Job.Os.Analyze.Repo", "instant"),
  base("Task.Base.noop", "base-noop", "Job.noop", "instant"),
  base("Task.Base.Linux.Bootstrap", "Bootstrap Linux", "Job.Linux.Bootstrap", "bootstrap", ["kernelUri", "initrdUri", "profile"], {
    os: { linux: { type: "microkernel" } },
  }),
  base("Task.Base.Linux.Catalog", "Base Linux Catalog", "Job.Linux.Catalog", "microkernel", ["commands"], { catalog: {} }, MICROKERNEL),
  base("Task.Base.Linux.Commands", "Base Linux Commands", "Job.Linux.Commands", "microkernel", ["commands"], {}, MICROKERNEL),
  base("Task.Base.ShellReboot", "Base Shell Reboot", "Job.Linux.ShellReboot", "microkernel", ["commands"], { power: {} }, MICROKERNEL),
  base("Task.Base.Trigger", "Base Trigger", "Job.Trigger", "instant"),
  base("Task.Base.Catalog.GenerateSku", "Generate SKU", "Job.Catalog.GenerateSku", "effect"),
  base("Task.Base.Catalog.GenerateTag", "Generate Tag", "Job.Catalog.GenerateTag", "effect"),
  base("Task.Base.Graph.RunSku", "Run SKU Graph", "Job.Graph.RunSku", "effect"),
  base("Task.Base.Obm.Ipmi.CreateSettings", "Create OBM settings", "Job.Obm.Ipmi.CreateSettings", "effect", ["user", "password"], {
    obm: { type: "ipmi" },
  }),
  base("Task.Base.Pollers.CreateDefault", "Create Default Pollers", "Job.Pollers.CreateDefault", "effect"),
  // No enclosure nodes here (a VM or a server reports no enclosure serial): nothing to do.
  base("Task.Base.Catalog.GenerateEnclosure", "Generate Enclosure", "Job.Catalog.GenerateEnclosure", "instant"),
];

const byName = new Map(BASE_TASKS.map((task) => [task.injectableName, task]));

export const baseTask = (name: string): BaseTask | undefined => byName.get(name);
