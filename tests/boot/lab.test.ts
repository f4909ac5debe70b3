import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandOf, namespacePids, namespaces } from "../../lab/host";
import { type LabState, labDown, labNeeds, labUp, obmSetting } from "../../lab/lab";
import { labMachines } from "../../lab/machines";
import { freePort, type OfflineServer, rackhdApi, startOffline } from "../support/offlineServer";

jest.setTimeout(300_000);

/**
 * `npm run lab -- up` and `down` against the real `serverless offline` (issue 52), as root: the
 * site's namespace with its DHCP, the relay inside it reaching the service through the lab's API
 * bridge, a machine behind each kind of BMC that the service powers on and off through the relay
 * (QEMU starts and stops: no firmware is waited for, the boot tests boot machines), `up` after a
 * crash cleaning up what was left, and `down` leaving no process, namespace, file or relay
 * credential behind. 10.76.0.0/24: no other test uses it.
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
      { name: "t-ipmi", firmware: "bios", bmc: "ipmi", memoryMiB: 512 },
      { name: "t-redfish", firmware: "uefi", bmc: "redfish", memoryMiB: 512 },
    ],
  });
  const up = () => labUp({ api: { url: server.baseUrl }, dir, octet: 76, machines, say: (line) => lines.push(line) });

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "lab-test-"));
    dir = join(scratch, "lab");
    server = await startOffline({ PORT: String(await freePort()), DEMO_NODES: "off" });
    state = await up();
  });

  afterAll(async () => {
    await labDown(dir, "lab76", () => undefined).catch(() => undefined);
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
    process.stdout.write(`lab up:\n${lines.join("\n")}\n`);
  });

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

  it.each(["t-ipmi", "t-redfish"])("powers %s on and off when the service says so, through the relay and its BMC", async (name) => {
    const node = (
      await api("POST", "/nodes", {
        name,
        identifiers: [machines.find((m) => m.name === name)?.nics[0].mac],
        obmSettings: [obmSetting(state, name)],
      })
    ).body.id;
    expect((await api("PUT", `/nodes/${node}/site`, { site: state.site?.id })).status).toBe(200);
    expect((await api("POST", `/nodes/${node}/power`, { action: "on" })).status).toBe(202);
    expect(await until(() => powered(name))).toBe(true);
    expect(existsSync(state.plan.machines.find((each) => each.machine.name === name)?.serialLog ?? "")).toBe(true);
    expect((await api("POST", `/nodes/${node}/power`, { action: "off" })).status).toBe(202);
    expect(await until(() => !powered(name))).toBe(true);
  });

  it("cleans up after a crashed lab at the next up, and down leaves no process, namespace, file or relay credential", async () => {
    // A crash: the lab's processes killed where they stand, its state and namespace left.
    for (const each of namespacePids("lab76")) process.kill(each.pid, "SIGKILL");
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
