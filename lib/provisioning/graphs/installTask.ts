import type { LibraryTask } from "./graphTypes";

/** An OS install task: RackHD's options common to every install, then the task's own. */
export const installTask = (
  injectableName: string,
  friendlyName: string,
  os: Record<string, unknown>,
  options: Record<string, unknown>,
): LibraryTask => ({
  friendlyName,
  injectableName,
  implementsTask: "Task.Base.Os.Install",
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
