import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LabState, labNeeds, labUp, labVlan, obmSetting, plannedMachine } from "../../lab/lab";
import { labMachines } from "../../lab/machines";
import { qmpExecute } from "../../lab/qmpMachine";
import { labSshArgv, opsUserData } from "../../lab/ssh";
import { type OfflineServer, rackhdApi } from "../support/offlineServer";
import { debianImage } from "./support/debianImage";
import { labTestDown, siteMirror } from "./support/labSite";
import { microkernelFiles, serviceWithMicrokernel } from "./support/microkernelService";

jest.setTimeout(2_400_000);

/**
 * Addresses by plan (issue 54) on a lab machine against the real `serverless offline`, as root: a
 * BIOS machine with two virtio NICs (QEMU's `set_link` reaches a virtio NIC's guest as a carrier
 * change; an e1000e's guest driver was seen keeping its carrier up while the link was down) on the site's bridge, whose ports carry VLAN 20 tagged (bridge VLAN
 * filtering, as a switch's trunk) beside the untagged boot network. It boots and is discovered on
 * the boot network by the site's DHCP; its plan is an active-backup bond of both NICs with a VLAN 20
 * interface on it, its address `auto` from the pool of subnet 10.74.20.0/24. Deployed with the
 * Debian image, it answers SSH at that address on VLAN 20; its active NIC's cable is pulled (QMP
 * `set_link`) and the session goes on over the other. A second node planned on the subnet gets the
 * pool's next address. 10.74.0.0/16: no other test uses it.
 */
const missing = labNeeds();
if (missing.length > 0) process.stdout.write(`network plan: not run here: needs ${missing.join(", ")}\n`);

const VLAN = 20;
/** Run on the installed machine: its bond's active NIC and its NICs' carriers, each second, to its serial console. */
const WATCH_SCRIPT = `while :; do
  printf '<3>watch: active %s carriers %s\\n' "$(cat /sys/class/net/bond0/bonding/active_slave)" "$(cat /sys/class/net/en5254*/carrier | tr '\\n' ' ')" > /dev/kmsg
  sleep 1
done
`;
const NAME = "bonded";

(missing.length === 0 ? describe : describe.skip)("a planned network: a bond, a VLAN and a static address from a pool", () => {
  let server: OfflineServer;
  let scratch: string;
  let dir: string;
  let state: LabState;
  const api = rackhdApi(() => server.baseUrl);
  const lines: string[] = [];
  let imageUrl = "";
  const machines = labMachines({
    machines: [
      {
        name: NAME,
        firmware: "bios",
        nics: [{ model: "virtio" }, { model: "virtio" }],
        disks: [{ bus: "sata", sizeGiB: 2 }],
        memoryMiB: 1024,
        bmc: "redfish",
      },
    ],
  });
  const vlan = labVlan(74, VLAN);

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "network-plan-test-"));
    dir = join(scratch, "lab");
    const files = microkernelFiles(scratch);
    const image = debianImage();
    server = await serviceWithMicrokernel(files);
    state = await labUp({ api: { url: server.baseUrl }, dir, octet: 74, machines, vlans: [VLAN], say: (line) => lines.push(line) });
    imageUrl = siteMirror("lab74", state.plan.hostIp, image, scratch);
  });

  afterAll(() => labTestDown({ dir, namespace: "lab74", server, scratch, lines }));

  function explain(): string {
    const serial = readFileSync(plannedMachine(state, NAME).serialLog, "latin1");
    return `serial of ${NAME}:\n${serial.slice(-6000)}\nrelay:\n${readFileSync(join(dir, "relay.log"), "utf8").slice(-2000)}`;
  }

  async function settled(node: string, from: string[], ms: number): Promise<{ provisionState: string; provisioning?: unknown }> {
    let current = (await api("GET", `/nodes/${node}`)).body;
    for (const end = Date.now() + ms; from.includes(current.provisionState) && Date.now() < end; ) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      current = (await api("GET", `/nodes/${node}`)).body;
    }
    return current;
  }

  async function act(node: string, action: string, options?: unknown): Promise<void> {
    const answer = await api("POST", `/nodes/${node}/actions`, { action, ...(options !== undefined && { options }) });
    if (answer.status !== 202) throw new Error(`${action}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  const ssh = (address: string, command: string) =>
    labSshArgv(
      "lab74",
      state.sshKey,
      `ops@${address}`,
      [command],
      ["-o", "BatchMode=yes", "-o", "ConnectTimeout=20", "-o", "ServerAliveInterval=2"],
    );

  it("installs the machine with its plan: SSH at the planned address on VLAN 20, through a pulled cable; the pool's next address to the next node", async () => {
    const planned = plannedMachine(state, NAME);
    const [mac0, mac1] = planned.machine.nics.map((nic) => nic.mac);
    const subnet = await api("POST", "/subnets", {
      name: "prod-vlan20",
      site: state.site?.id,
      cidr: vlan.cidr,
      gateway: vlan.hostIp,
      nameservers: [vlan.hostIp],
      vlan: VLAN,
      ranges: [
        { kind: "reserved", start: "10.74.20.2", end: "10.74.20.9", comment: "switches" },
        { kind: "pool", start: "10.74.20.10", end: "10.74.20.20" },
      ],
    });
    expect(subnet.status).toBe(201);
    const node = (await api("POST", "/nodes", { name: NAME, identifiers: [mac0], obmSettings: [obmSetting(state, NAME)] })).body.id;
    expect((await api("PUT", `/nodes/${node}/site`, { site: state.site?.id })).status).toBe(200);

    // Discovered on the untagged boot network; its catalog names the second NIC.
    const discovery = (await api("POST", `/nodes/${node}/workflows`, { name: "Graph.Refresh.Immediate.Discovery" })).body;
    let workflow = discovery;
    for (const end = Date.now() + 900_000; workflow._status === "running" && Date.now() < end; ) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      workflow = (await api("GET", `/workflows/${discovery.instanceId}`)).body;
    }
    if (workflow._status !== "succeeded") process.stdout.write(explain());
    expect(workflow._status).toBe("succeeded");

    const plan = await api("PUT", `/nodes/${node}/network`, {
      interfaces: [
        { name: "bond0", type: "bond", mode: "active-backup", members: [mac0, mac1] },
        { name: "bond0.20", type: "vlan", link: "bond0", vlan: VLAN, subnet: subnet.body.id, address: "auto" },
      ],
    });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ missingMacs: [], given: [{ interface: "bond0.20", address: "10.74.20.10" }] });
    // The next node planned on the subnet gets the pool's next address.
    const next = (await api("POST", "/nodes", { name: "planned-next", identifiers: ["52:54:00:74:00:99"] })).body.id;
    expect((await api("PUT", `/nodes/${next}/site`, { site: state.site?.id })).status).toBe(200);
    const nextPlan = await api("PUT", `/nodes/${next}/network`, {
      interfaces: [{ name: "eno1", type: "ethernet", mac: "52:54:00:74:00:99", subnet: subnet.body.id, address: "auto" }],
    });
    expect(nextPlan.body.given).toEqual([expect.objectContaining({ address: "10.74.20.11" })]);
    const given = (await api("GET", `/subnets/${subnet.body.id}/addresses`)).body;
    expect(given.map((each: { address: string; node: string }) => [each.address, each.node])).toEqual([
      ["10.74.20.10", node],
      ["10.74.20.11", next],
    ]);

    expect(
      (await api("PUT", `/nodes/${node}/user-data`, { userData: opsUserData(NAME, readFileSync(`${state.sshKey}.pub`, "utf8").trim()) }))
        .status,
    ).toBe(200);
    await act(node, "provide");
    await act(node, "allocate", { owner: "network-test" });
    await act(node, "deploy", {
      graph: "Graph.InstallImage",
      options: { "install-os": { image: imageUrl, installDisk: { byId: `ata-QEMU_HARDDISK_${NAME}-disk0` }, _taskTimeout: 1_500_000 } },
    });
    const deployed = await settled(node, ["deploying"], 1_500_000);
    if (deployed.provisionState !== "deployed") process.stdout.write(`${JSON.stringify(deployed.provisioning)}\n${explain()}`);
    expect(deployed.provisionState).toBe("deployed");

    // Seen, not assumed: the installed system reported its addresses, and they are the plan's.
    let view = (await api("GET", `/nodes/${node}/network`)).body;
    for (const end = Date.now() + 120_000; !view.seen && Date.now() < end; ) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      view = (await api("GET", `/nodes/${node}/network`)).body;
    }
    process.stdout.write(`seen: ${JSON.stringify(view.seen)}\n`);
    expect(view.seen.nics).toEqual(expect.arrayContaining([expect.objectContaining({ name: "bond0.20", addresses: ["10.74.20.10/24"] })]));
    expect(view.differences).toEqual([]);
    const lookup = (await api("GET", "/lookups?q=10.74.20.10")).body;
    expect(lookup).toEqual([expect.objectContaining({ node, macAddress: mac0 })]);

    // Logged in at the planned address, over VLAN 20: a session that ticks each second.
    const session: ChildProcess = (() => {
      const argv = ssh(
        "10.74.20.10",
        "for i in $(seq 1 90); do echo tick $i $(cat /sys/class/net/bond0/bonding/active_slave); sleep 1; done",
      );
      return spawn(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    })();
    let ticks = "";
    session.stdout?.on("data", (chunk) => {
      ticks += chunk.toString();
    });
    const tickCount = () => (ticks.match(/^tick /gm) ?? []).length;
    for (const end = Date.now() + 120_000; tickCount() < 3 && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ticks).toMatch(/tick 1 en5254/);
    const bonding = spawnSync(
      ssh("10.74.20.10", "cat /proc/net/bonding/bond0")[0],
      ssh("10.74.20.10", "cat /proc/net/bonding/bond0").slice(1),
      {
        encoding: "utf8",
        timeout: 60_000,
      },
    ).stdout;
    process.stdout.write(`bond0 before the cable is pulled:\n${bonding}\n`);
    expect(bonding).toMatch(/Bonding Mode: fault-tolerance \(active-backup\)/);
    expect(bonding).toMatch(/MII Polling Interval \(ms\): 100/);
    const active = /tick \d+ (\S+)/.exec(ticks)![1];
    expect(active).toBe(`en${mac0.replace(/:/g, "")}`);
    // What the machine sees, each second, on its serial console (a kernel message of level 3 reaches it): for the record, and for a failure.
    const put = ssh("10.74.20.10", "cat > /tmp/watch.sh");
    spawnSync(put[0], put.slice(1), { input: WATCH_SCRIPT, encoding: "utf8", timeout: 60_000 });
    const watch = ssh("10.74.20.10", "sudo setsid sh /tmp/watch.sh </dev/null >/dev/null 2>&1 &");
    spawnSync(watch[0], watch.slice(1), { encoding: "utf8", timeout: 60_000 });
    // The active NIC's cable is pulled: the bond's other member carries the session on.
    await qmpExecute(join(planned.bmc!.dir, "qmp.sock"), "set_link", { name: "net0", up: false });
    const pulledAt = tickCount();
    for (const end = Date.now() + 120_000; tickCount() < pulledAt + 10 && Date.now() < end; )
      await new Promise((resolve) => setTimeout(resolve, 500));
    session.kill();
    process.stdout.write(`session:\n${ticks}\n`);
    if (tickCount() < pulledAt + 10) {
      const fdb = spawnSync("ip", ["netns", "exec", "lab74", "bridge", "fdb", "show", "br", "lab74"], { encoding: "utf8" }).stdout;
      process.stdout.write(
        `bridge fdb:\n${fdb}\n${explain()}\nvlan port:\n${readFileSync(join(dir, "vlan20.log"), "utf8").slice(-1000)}\n`,
      );
    }
    expect(tickCount()).toBeGreaterThanOrEqual(pulledAt + 10);
    expect(ticks.trim().split("\n").pop()).toContain(`en${mac1.replace(/:/g, "")}`);
    // And a new login works with the cable still out.
    const again = ssh("10.74.20.10", "hostname; ip -br addr show bond0.20");
    const login = spawnSync(again[0], again.slice(1), { encoding: "utf8", timeout: 90_000 });
    expect(login.stdout).toContain(NAME);
    expect(login.stdout).toContain("10.74.20.10/24");
  });
});
