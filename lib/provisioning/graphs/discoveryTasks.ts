import type { LibraryTask } from "./graphTypes";

/**
 * The tasks of RackHD's discovery (on-tasks `lib/task-data/tasks`, era A/C): the microkernel's
 * boot, the catalog commands it runs, the shell commands, the reboot, and the steps that classify
 * the node from its catalogs.
 */
const catalog = (name: string, friendlyName: string, commands: string[], source: string): LibraryTask => ({
  friendlyName,
  injectableName: `Task.Catalog.${name}`,
  implementsTask: "Task.Base.Linux.Catalog",
  options: { commands },
  properties: { catalog: { type: source } },
});

const step = (injectableName: string, friendlyName: string, implementsTask: string): LibraryTask => ({
  friendlyName,
  injectableName,
  implementsTask,
  options: {},
  properties: {},
});

/** The microkernel's files under {{file.server}}/common/ (RackHD era C's names; `npm run microkernel` publishes them). */
export const MICROKERNEL_FILES = {
  kernel: "vmlinuz-3.16.0-25-generic",
  initrd: "initrd.img-3.16.0-25-generic",
  overlay: "discovery.overlay.cpio.gz",
} as const;

export const DISCOVERY_TASKS: readonly LibraryTask[] = [
  {
    friendlyName: "Bootstrap Ubuntu",
    injectableName: "Task.Linux.Bootstrap.Ubuntu",
    implementsTask: "Task.Base.Linux.Bootstrap",
    // RackHD era C's files and URIs; {{file.server}} is FILE_SERVER (where the microkernel's files are).
    options: {
      kernelFile: MICROKERNEL_FILES.kernel,
      initrdFile: MICROKERNEL_FILES.initrd,
      basefs: "base.trusty.3.16.0-25-generic.squashfs.img",
      overlayfs: MICROKERNEL_FILES.overlay,
      kernelUri: "{{file.server}}/common/{{options.kernelFile}}",
      initrdUri: "{{file.server}}/common/{{options.initrdFile}}",
      basefsUri: "{{file.server}}/common/{{options.basefs}}",
      overlayfsUri: "{{file.server}}/common/{{options.overlayfs}}",
      profile: "linux.ipxe",
      comport: "ttyS0",
      // A machine that never starts the microkernel (its files missing, a boot that fails) must not
      // hold its node for ever: RackHD's bootstrap waited a bounded time too. Ten minutes.
      _taskTimeout: 600_000,
    },
    properties: { os: { linux: { distribution: "ubuntu", release: "trusty", kernel: "3.16.0-25-generic" } } },
  },
  // mokutil --sb-state (issue 38): whether the firmware boots with Secure Boot on, beside its DMI table.
  catalog("dmi", "Catalog dmi", ["sudo dmidecode", "sudo mokutil --sb-state"], "dmi"),
  catalog("ohai", "Catalog ohai", ["sudo ohai --directory /etc/ohai/plugins"], "ohai"),
  catalog("bmc", "Catalog bmc", ["sudo ipmitool lan print", "sudo ipmitool sel", "sudo ipmitool mc info"], "bmc"),
  catalog("lsall", "Catalog lsall", ["sudo lspci -nn -vmm", "sudo lshw -json", "sudo lsscsi --size"], "lsall"),
  {
    friendlyName: "Shell commands",
    injectableName: "Task.Linux.Commands",
    implementsTask: "Task.Base.Linux.Commands",
    options: {
      commands: [
        { command: "sudo ls /var", catalog: { format: "raw", source: "ls var" } },
        { command: "sudo lshw -json", catalog: { format: "json", source: "lshw user" } },
        { command: "test", acceptedResponseCodes: [1] },
      ],
    },
    properties: { commands: {} },
  },
  {
    friendlyName: "Reboot Node (from the microkernel)",
    injectableName: "Task.ProcShellReboot",
    implementsTask: "Task.Base.ShellReboot",
    options: { commands: ["sudo reboot"] },
    properties: { power: { state: "reboot" } },
  },
  step("Task.Trigger.Send.Finish", "Send Finish Trigger", "Task.Base.Trigger"),
  step("Task.Catalog.GenerateSku", "Generate SKU", "Task.Base.Catalog.GenerateSku"),
  step("Task.Catalog.GenerateTag", "Generate Tag", "Task.Base.Catalog.GenerateTag"),
  step("Task.Catalog.GenerateEnclosure", "Generate Enclosure", "Task.Base.Catalog.GenerateEnclosure"),
];
