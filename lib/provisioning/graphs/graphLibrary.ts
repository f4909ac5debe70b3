import { DISCOVERY_GRAPHS } from "./discoveryGraphs";
import { type GraphDefinition, type GraphTaskEntry, labelOf, pxeOnce } from "./graphTypes";
import { LIFECYCLE_GRAPHS } from "./lifecycleGraphs";

/** set-boot-pxe → reboot → <install task>: the shape of every RackHD 1.1 install graph. */
const installGraph = (
  injectableName: string,
  friendlyName: string,
  installLabel: string,
  taskName: string,
  options: Record<string, unknown>,
  before: GraphTaskEntry[] = [],
): GraphDefinition => ({
  friendlyName,
  injectableName,
  options: { ...options, [installLabel]: { _taskTimeout: 3_600_000, ...(options[installLabel] as object) } },
  tasks: [
    ...before,
    ...pxeOnce(before.length > 0 ? { [labelOf(before[before.length - 1])]: "succeeded" } : undefined),
    { label: installLabel, taskName, waitOn: { reboot: "succeeded" } },
  ],
});

const single = (injectableName: string, friendlyName: string, label: string, taskName: string): GraphDefinition => ({
  friendlyName,
  injectableName,
  options: {},
  tasks: [{ label, taskName }],
});

const esxGraph = (injectableName: string): GraphDefinition =>
  installGraph(
    injectableName,
    "Install ESXi",
    "install-os",
    "Task.Os.Install.Esx",
    { defaults: { version: null, repo: "{{api.server}}/esxi/{{options.version}}" } },
    [{ label: "analyze-repo", taskName: "Task.Os.Esx.Analyze.Repo" }],
  );

export const GRAPH_LIBRARY: readonly GraphDefinition[] = [
  installGraph("Graph.InstallCentOS", "Install CentOS", "install-os", "Task.Os.Install.CentOS", {
    defaults: { version: null, repo: "{{api.server}}/centos/{{options.version}}/os/x86_64" },
  }),
  installGraph("Graph.InstallRHEL", "Install RHEL", "install-os", "Task.Os.Install.CentOS", {
    defaults: { version: null, repo: "{{api.server}}/rhel/{{options.version}}/os/x86_64" },
  }),
  installGraph("Graph.InstallUbuntu", "Install Ubuntu", "install-ubuntu", "Task.Os.Install.Ubuntu", {}),
  installGraph("Graph.InstallCoreOS", "Install CoreOS", "install-coreos", "Task.Os.Install.CoreOS", {}),
  esxGraph("Graph.InstallEsx"),
  // RackHD era C's name for the same graph.
  esxGraph("Graph.InstallESXi"),
  // Today's systems, configured by cloud-init (cloudInitTasks.ts, docs/cloud-init.md).
  installGraph("Graph.InstallImage", "Install a disk image", "install-os", "Task.Os.Install.Image", {}),
  installGraph("Graph.InstallUbuntuAutoinstall", "Install Ubuntu (autoinstall)", "install-os", "Task.Os.Install.Ubuntu.Autoinstall", {}),
  installGraph("Graph.InstallDebian", "Install Debian", "install-os", "Task.Os.Install.Debian", {}),
  installGraph("Graph.InstallRocky", "Install Rocky Linux 9", "install-os", "Task.Os.Install.EL9", {
    defaults: { repo: "http://dl.rockylinux.org/pub/rocky/9/BaseOS/x86_64/os" },
  }),
  installGraph("Graph.InstallAlma", "Install AlmaLinux 9", "install-os", "Task.Os.Install.EL9", {
    defaults: { repo: "http://repo.almalinux.org/almalinux/9/BaseOS/x86_64/os" },
  }),
  single("Graph.Reboot.Node", "Reboot Node", "reboot", "Task.Obm.Node.Reboot"),
  single("Graph.PowerOn.Node", "Power On Node", "power-on", "Task.Obm.Node.PowerOn"),
  single("Graph.PowerOff.Node", "Power Off Node", "power-off", "Task.Obm.Node.PowerOff"),
  // Through a Redfish BMC (issue 53): BIOS attributes for the next reset (`options: {"set-bios": {"attributes": {…}}}`).
  single("Graph.Redfish.Bios.Set", "Set BIOS attributes (at the next reset)", "set-bios", "Task.Redfish.Bios.Set"),
  {
    friendlyName: "Read the BIOS and firmware inventory",
    injectableName: "Graph.Redfish.Catalog",
    options: {},
    tasks: [
      { label: "catalog-redfish-bios", taskName: "Task.Redfish.Catalog.Bios" },
      { label: "catalog-redfish-firmware", taskName: "Task.Redfish.Catalog.Firmware", waitOn: { "catalog-redfish-bios": "finished" } },
    ],
  },
  // The node's IPMI OBM setting from its bmc catalog, with the credentials its options give
  // (`defaults.user`, `defaults.password`): what a SKU names as its discovery graph, so that a
  // machine of that SKU is power-controlled with no operator step (issue 37).
  single("Graph.Obm.Ipmi.CreateSettings", "Create IPMI OBM settings", "create-obm-settings", "Task.Obm.Ipmi.CreateSettings"),
  {
    friendlyName: "noop-graph",
    injectableName: "Graph.noop-example",
    options: {},
    tasks: [
      { label: "noop-1", taskName: "Task.noop" },
      { label: "noop-2", taskName: "Task.noop", waitOn: { "noop-1": "finished" } },
      { label: "parallel-noop-1", taskName: "Task.noop", waitOn: { "noop-2": "finished" } },
      { label: "parallel-noop-2", taskName: "Task.noop", waitOn: { "noop-2": "finished" } },
    ],
  },
  ...DISCOVERY_GRAPHS,
  ...LIFECYCLE_GRAPHS,
];

const byName = new Map(GRAPH_LIBRARY.map((graph) => [graph.injectableName, graph]));

export const graphDefinition = (name: string): GraphDefinition | undefined => byName.get(name);
