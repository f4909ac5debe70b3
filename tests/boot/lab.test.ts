import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandOf, namespacePids, namespaces } from "../../lab/host";
import { type LabState, labDown, labNeeds, labUp, obmSetting } from "../../lab/lab";
import { labMachines } from "../../lab/machines";
import { publishSecureBoot, secureBootFiles } from "../../microkernel/secureBoot";
import { type OfflineServer, rackhdApi } from "../support/offlineServer";
import { labTestDown } from "./support/labSite";
import { microkernelFiles, serviceWithMicrokernel } from "./support/microkernelService";
import { labPause } from "./support/panic";

jest.setTimeout(900_000);

/**
 * `npm run lab -- up` and `down` against the real `serverless offline` (issue 52), as root: the
 * site's namespace with its DHCP, the relay inside it reaching the service through the lab's API
 * bridge; docs/lab.md's discovery (a Secure Boot machine registered with its IPMI BMC, discovered
 * when the service resets it through the relay: shim and GRUB from the relay's TFTP, the kernel
 * locked down, its BMC in its catalog); a machine behind the Redfish BMC that the service powers on
 * and off; `up` after a crash cleaning up what was left; and `down` leaving no process, namespace,
 * file or relay credential behind. 10.76.0.0/24: no other test uses it.
 */
const missing = labNeeds();
if (missing.length > 0) process.stdout.write(`lab: not run here: needs ${missing.join(", ")}\n`);

/** Every process on the host whose command line names `text`. */
const processesNaming = (text: string): string[] =>
  execFileSync("ps", ["-eo", "pid="], { encoding: "utf8" })
    .split("\n")
    .map((pid) => commandOf(Number(pid.trim())))
    .filter((command) => command.includes(text));

(missing.length === 0 ? describe : describe.skip)("the lab: a site on this host, up and down", () => {
  let server: OfflineServer;
  let scratch: string;
  let dir: string;
  let state: LabState;
  const api = rackhdApi(() => server.baseUrl);
  const lines: string[] = [];
  const machines = labMachines({
    machines: [
      // The lab's Secure Boot machine as its defaults make it, with one small SATA disk.
      {
        name: "t-secure",
        firmware: "uefi-secure-boot",
        nics: [{ model: "virtio" }, { model: "e1000e" }],
        disks: [{ bus: "sata", sizeGiB: 1 }],
        bmc: "ipmi",
      },
      { name: "t-redfish", firmware: "uefi", bmc: "redfish", memoryMiB: 512 },
    ],
  });
  const up = () => labUp({ api: { url: server.baseUrl }, dir, octet: 76, machines, owner: process.pid, say: (line) => lines.push(line) });

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "lab-test-"));
    dir = join(scratch, "lab");
    const files = microkernelFiles(scratch);
    const signed = secureBootFiles();
    server = await serviceWithMicrokernel(files);
    await publishSecureBoot({ api: server.baseUrl }, signed);
    state = await up();
  });

  afterAll(() => labTestDown({ dir, namespace: "lab76", server, scratch, lines }));

  const powered = (name: string) => namespacePids("lab76").some((each) => each.command.includes(`-name ${name} `));
  async function until(what: () => boolean, ms = 60_000): Promise<boolean> {
    for (const end = Date.now() + ms; !what() && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 500));
    return what();
  }

  it("makes the site in a namespace of its own, its relay online through the service, every machine off", async () => {
    expect(namespaces()).toContain("lab76");
    const inside = namespacePids("lab76").map((each) => each.command);
    expect(inside.some((command) => command.startsWith("/usr/sbin/dnsmasq"))).toBe(true);
    expect(inside.some((command) => command.includes("relay/cli.ts"))).toBe(true);
    expect(inside.filter((command) => command.startsWith("/usr/bin/ipmi_sim"))).toHaveLength(1);
    expect(machines.some((machine) => powered(machine.name))).toBe(false);
    // The relay inside reached the service outside: its credential shows it heard from.
    let relays: { id: string; online: boolean }[] = [];
    for (let tries = 0; tries < 30 && !relays.some((relay) => relay.online); tries += 1) {
      relays = (await api("GET", `/sites/${state.site?.id}/relays`)).body;
      if (!relays.some((relay) => relay.online)) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(relays).toEqual([expect.objectContaining({ id: state.relayCredential, online: true })]);
    // The host's own network has none of it: the bridge is inside.
    expect(execFileSync("ip", ["-o", "link", "show"], { encoding: "utf8" })).not.toContain("lab76");
  });

  /** A lab machine registered as docs/lab.md does it: its MAC, its BMC's OBM setting, the lab's site. */
  async function enroll(name: string): Promise<string> {
    const mac = machines.find((machine) => machine.name === name)?.nics[0].mac;
    const node = (await api("POST", "/nodes", { name, identifiers: [mac], obmSettings: [obmSetting(state, name)] })).body.id;
    expect((await api("PUT", `/nodes/${node}/site`, { site: state.site?.id })).status).toBe(200);
    return node;
  }

  it("discovers the Secure Boot machine as docs/lab.md does: reset through the relay and its IPMI BMC, shim and GRUB, its BMC in its catalog", async () => {
    const node = await enroll("t-secure");
    const started = await api("POST", `/nodes/${node}/workflows`, { name: "Graph.Refresh.Immediate.Discovery" });
    expect(started.status).toBe(201);
    let workflow = started.body;
    for (const end = Date.now() + 600_000; workflow._status === "running" && Date.now() < end; ) {
      await labPause(state, 2000, ["t-secure"]);
      workflow = (await api("GET", `/workflows/${started.body.instanceId}`)).body;
    }
    const planned = state.plan.machines.find((each) => each.machine.name === "t-secure");
    // The workflow ends with its last task's result; the microkernel is told to reboot when it asks
    // for its next task, a moment later, so the console is read once that line is on it (or a minute on).
    const serialNow = () => readFileSync(planned?.serialLog ?? "", "latin1");
    await until(() => serialNow().includes("MICROKERNEL: told to reboot"));
    const serial = serialNow();
    if (workflow._status !== "succeeded")
      process.stdout.write(`serial:\n${serial.slice(-6000)}\nrelay:\n${readFileSync(join(dir, "relay.log"), "utf8").slice(-3000)}\n`);
    expect(workflow._status).toBe("succeeded");
    // The BMC was told (a one-time PXE boot, a reset) and started the machine; the site's DHCP named shim.
    expect(readFileSync(join(planned?.bmc?.dir ?? "", "chassis", "calls"), "utf8")).toMatch(/set boot pxe[\s\S]*set (power 1|reset 1)/);
    expect(readFileSync(join(dir, "relay.log"), "utf8")).toMatch(/tftp: \S+ \/?shimx64\.efi/);
    expect(serial).toMatch(/Kernel is locked down from EFI Secure Boot/);
    expect(serial).toContain("MICROKERNEL: told to reboot");
    expect((await api("GET", `/nodes/${node}`)).body.secureBoot).toMatchObject({ state: "enabled" });
    expect((await api("GET", `/nodes/${node}/catalogs/bmc`)).body.data).toMatchObject({ "IP Address": planned?.bmc?.address });
    expect((await api("POST", `/nodes/${node}/power`, { action: "off" })).status).toBe(202);
    expect(await until(() => !powered("t-secure"))).toBe(true);
  });

  it("powers the machine behind the Redfish BMC on and off when the service says so, through the relay", async () => {
    const node = await enroll("t-redfish");
    expect((await api("POST", `/nodes/${node}/power`, { action: "on" })).status).toBe(202);
    expect(await until(() => powered("t-redfish"))).toBe(true);
    expect(existsSync(state.plan.machines.find((each) => each.machine.name === "t-redfish")?.serialLog ?? "")).toBe(true);
    expect((await api("POST", `/nodes/${node}/power`, { action: "off" })).status).toBe(202);
    expect(await until(() => !powered("t-redfish"))).toBe(true);
  });

  it("cleans up after a crashed lab at the next up, and down leaves no process, namespace, file or relay credential", async () => {
    // A crash: the lab's processes killed where they stand, its state and namespace left.
    // (A process listed may end before it is killed, as a QEMU powering off does: already gone is what a crash leaves too.)
    for (const each of namespacePids("lab76")) {
      try {
        process.kill(each.pid, "SIGKILL");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
    }
    const crashed = state;
    state = await up();
    expect(lines.join("\n")).toContain("removing what a previous lab left (lab76");
    expect(state.relayCredential).not.toBe(crashed.relayCredential);
    const relays = (await api("GET", `/sites/${state.site?.id}/relays`)).body as { id: string }[];
    expect(relays.map((relay) => relay.id)).toEqual([state.relayCredential]);

    const removed = await labDown(dir, "lab76", (line) => lines.push(line));
    expect(removed).toEqual(expect.arrayContaining([`relay credential ${state.relayCredential}`, "namespace lab76", dir]));
    expect(namespaces()).not.toContain("lab76");
    expect(processesNaming(dir)).toEqual([]);
    expect(processesNaming("lab76")).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync("/etc/netns/lab76")).toBe(false);
    expect((await api("GET", `/sites/${state.site?.id}/relays`)).body).toEqual([]);
    expect(readFileSync("/proc/net/dev", "utf8")).not.toContain("lab76");
  });
});
