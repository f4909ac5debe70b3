import { type GraphDefinition, type GraphTaskEntry, pxeOnce } from "./graphTypes";

/**
 * RackHD's discovery graphs (on-taskgraph `lib/graphs`). Graph.Discovery boots the microkernel and
 * catalogs the machine; Graph.SKU.Discovery, which the profiles route runs on a new machine, then
 * classifies it. RackHD ran Graph.Discovery inside Graph.SKU.Discovery as a child graph (an
 * inline Task.Graph.Run.Discovery); a node here has one active workflow, so its tasks are
 * written out in it instead, and the classification steps wait on its last one.
 */
const DISCOVERY_TASKS: GraphTaskEntry[] = [
  { label: "bootstrap-ubuntu", taskName: "Task.Linux.Bootstrap.Ubuntu" },
  { label: "catalog-dmi", taskName: "Task.Catalog.dmi", waitOn: { "bootstrap-ubuntu": "succeeded" } },
  { label: "catalog-ohai", taskName: "Task.Catalog.ohai", waitOn: { "catalog-dmi": "finished" } },
  { label: "catalog-bmc", taskName: "Task.Catalog.bmc", waitOn: { "catalog-ohai": "finished" }, ignoreFailure: true },
  { label: "catalog-lsall", taskName: "Task.Catalog.lsall", waitOn: { "catalog-bmc": "finished" }, ignoreFailure: true },
  { label: "shell-reboot", taskName: "Task.ProcShellReboot", waitOn: { "catalog-lsall": "finished" } },
];

const classified = { "shell-reboot": "succeeded" };

/** What follows a discovery: the node's SKU, enclosure, default pollers and tags, from its new catalogs. */
const CLASSIFY_TASKS: GraphTaskEntry[] = [
  { label: "generate-sku", taskName: "Task.Catalog.GenerateSku", waitOn: classified },
  { label: "generate-enclosure", taskName: "Task.Catalog.GenerateEnclosure", waitOn: classified, ignoreFailure: true },
  {
    label: "create-default-pollers",
    taskDefinition: {
      friendlyName: "Create Default Pollers",
      injectableName: "Task.Inline.Pollers.CreateDefault",
      implementsTask: "Task.Base.Pollers.CreateDefault",
      options: {},
      properties: {},
    },
    waitOn: classified,
  },
  { label: "generate-tag", taskName: "Task.Catalog.GenerateTag", waitOn: classified },
];

export const DISCOVERY_GRAPHS: readonly GraphDefinition[] = [
  { friendlyName: "Discovery", injectableName: "Graph.Discovery", options: {}, tasks: DISCOVERY_TASKS },
  {
    friendlyName: "SKU Discovery",
    injectableName: "Graph.SKU.Discovery",
    options: {},
    tasks: [
      ...DISCOVERY_TASKS,
      ...CLASSIFY_TASKS,
      {
        label: "run-sku-graph",
        taskDefinition: {
          friendlyName: "Run SKU-specific graph",
          injectableName: "Task.Graph.Run.SkuGraph",
          implementsTask: "Task.Base.Graph.RunSku",
          options: {},
          properties: {},
        },
        waitOn: { "generate-sku": "succeeded", "generate-tag": "finished" },
      },
    ],
  },
  {
    // A known machine discovered again through its BMC (its catalogs, SKU and pollers refreshed).
    // RackHD reset the machine and relied on its boot order; here, as in the install graphs, a
    // one-time PXE boot is set first, so a machine whose disk boots first is rediscovered too.
    friendlyName: "Refresh node immediate",
    injectableName: "Graph.Refresh.Immediate.Discovery",
    options: {},
    tasks: [
      // A Redfish BMC's view first (its BIOS attributes and boot order, its firmware): an IPMI
      // BMC has none, and the two fail there, ignored.
      { label: "catalog-redfish-bios", taskName: "Task.Redfish.Catalog.Bios", ignoreFailure: true },
      {
        label: "catalog-redfish-firmware",
        taskName: "Task.Redfish.Catalog.Firmware",
        ignoreFailure: true,
        waitOn: { "catalog-redfish-bios": "finished" },
      },
      ...pxeOnce({ "catalog-redfish-firmware": "finished" }),
      { ...DISCOVERY_TASKS[0], waitOn: { reboot: "succeeded" } },
      ...DISCOVERY_TASKS.slice(1),
      ...CLASSIFY_TASKS,
    ],
  },
  {
    friendlyName: "Shell Commands",
    injectableName: "Graph.ShellCommands",
    options: {},
    tasks: [
      ...pxeOnce(undefined, "reboot-start"),
      { label: "bootstrap-ubuntu", taskName: "Task.Linux.Bootstrap.Ubuntu", waitOn: { "reboot-start": "succeeded" } },
      { label: "shell-commands", taskName: "Task.Linux.Commands", waitOn: { "bootstrap-ubuntu": "succeeded" } },
      { label: "reboot-end", taskName: "Task.ProcShellReboot", waitOn: { "shell-commands": "finished" } },
    ],
  },
];
