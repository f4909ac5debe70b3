import { readFileSync } from "node:fs";
import { join } from "node:path";
import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { bootProfile } from "../../../../lib/provisioning/boot/bootService";
import { acceptResults, commandsOf, nextCommands, resultsIn } from "../../../../lib/provisioning/discovery/microkernel";
import { findLookups } from "../../../../lib/provisioning/lookups/lookupService";
import { getWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { later, memoryStores, T0 } from "./setUp";

const api = apiContextFor("http://10.0.0.1:9080");
const MAC = "52:54:00:12:34:56";
const SAMPLE = join(__dirname, "../../../../scripts/sampleMachine");
const sample = (cmd: string): string => {
  const file = ["dmidecode.txt", "lshw.json", "lspci.txt", "lsscsi.txt", "ohai.json"].find((name) => cmd.includes(name.split(".")[0]));
  return file ? readFileSync(join(SAMPLE, file), "utf8") : "";
};

describe("the microkernel's protocol (Graph.SKU.Discovery)", () => {
  const discovering = async () => {
    const stores = memoryStores();
    await bootProfile(stores, [MAC], "10.0.0.50", api, T0, { graph: "Graph.SKU.Discovery" });
    const [node] = await stores.nodes.list();
    const [workflow] = await stores.workflows.list();
    return { stores, node, workflow, caller: { token: workflow.bootToken, requireToken: true } };
  };

  it("hands out the first catalog task's commands (again until its results come), only with the boot token", async () => {
    const { stores, node, caller } = await discovering();
    await expect(nextCommands(stores, node.id, { token: "wrong", requireToken: true }, T0)).rejects.toMatchObject({ kind: "forbidden" });
    const first = await nextCommands(stores, node.id, caller, later(1));
    expect(first?.identifier).toBe(node.id);
    expect(first?.tasks.length).toBeGreaterThan(0);
    expect(await nextCommands(stores, MAC, caller, later(2))).toEqual(first);
    await expect(nextCommands(stores, "nope", caller, T0)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("turns results into catalogs, records the NICs' MACs, and runs the tasks to the reboot that ends the graph", async () => {
    const { stores, node, workflow, caller } = await discovering();
    let at = 1;
    for (let round = 0; round < 20; round += 1) {
      const set = await nextCommands(stores, node.id, caller, later(at++));
      if (!set) break;
      await acceptResults(
        stores,
        node.id,
        set.tasks.map((task) => ({ cmd: task.cmd, stdout: sample(task.cmd), stderr: "" })),
        caller,
        later(at++),
      );
    }
    const sources = new Set((await stores.catalogs.forNode(node.id)).map((catalog) => catalog.source));
    expect([...sources]).toEqual(expect.arrayContaining(["dmi", "lshw", "lspci"]));
    expect((await getWorkflow(stores, workflow.instanceId, later(at)))._status).toBe("succeeded");
    expect((await findLookups(stores, undefined)).length).toBeGreaterThanOrEqual(1);
  });

  it("never moves another node's lookup or identity to a machine whose lshw claims its MAC (issue 35 §4)", async () => {
    const { stores, node, caller } = await discovering();
    const VICTIM_MAC = "52:54:00:aa:bb:cc";
    const UNBOOTED_MAC = "52:54:00:aa:bb:dd";
    await bootProfile(stores, [VICTIM_MAC], "10.0.0.60", api, later(1));
    const victim = (await stores.nodes.find(VICTIM_MAC))!;
    await stores.nodes.create({ ...victim, id: "0123456789abcdef01234567", name: "made", identifiers: [UNBOOTED_MAC] });
    const lying = JSON.stringify({
      class: "system",
      children: [VICTIM_MAC, UNBOOTED_MAC, "52:54:00:aa:bb:ee"].map((serial) => ({ class: "network", serial })),
    });
    let lied = false;
    for (let at = 2; at < 40; at += 2) {
      const set = await nextCommands(stores, node.id, caller, later(at));
      if (!set) break;
      const results = set.tasks.map((task) => ({
        cmd: task.cmd,
        stdout: task.cmd.includes("lshw") ? lying : sample(task.cmd),
        stderr: "",
      }));
      lied ||= results.some((result) => result.stdout === lying);
      await acceptResults(stores, node.id, results, caller, later(at + 1));
    }
    expect(lied).toBe(true);
    expect((await stores.lookups.byMac(VICTIM_MAC))?.node).toBe(victim.id);
    expect((await stores.lookups.byMac(VICTIM_MAC))?.ipAddress).toBe("10.0.0.60");
    expect(await stores.lookups.byMac(UNBOOTED_MAC)).toBeUndefined();
    // A MAC nobody holds is the machine's own, as RackHD recorded it.
    expect((await stores.lookups.byMac("52:54:00:aa:bb:ee"))?.node).toBe(node.id);
    expect((await stores.nodes.find(VICTIM_MAC))?.id).toBe(victim.id);
  });

  it("ignores results it did not ask for: another command, more results than commands, an unknown node", async () => {
    const { stores, node, caller } = await discovering();
    const set = (await nextCommands(stores, node.id, caller, later(1)))!;
    await acceptResults(stores, node.id, [{ cmd: "rm -rf /", stdout: "" }], caller, later(2));
    const extra = [...set.tasks, { cmd: "extra" }].map((task) => ({ cmd: task.cmd, stdout: "" }));
    await acceptResults(stores, node.id, extra, caller, later(3));
    await acceptResults(stores, "nope", [{ cmd: set.tasks[0].cmd }], caller, later(4));
    await acceptResults(stores, "x".repeat(2_000), [{ cmd: set.tasks[0].cmd }], caller, later(4));
    expect(await stores.catalogs.forNode(node.id)).toEqual([]);
    expect(await nextCommands(stores, node.id, caller, later(5))).toEqual(set);
  });

  it("reads a results body only when it is a list of commands", () => {
    expect(resultsIn({ tasks: [{ cmd: "a", stdout: "x" }] })).toEqual([{ cmd: "a", stdout: "x" }]);
    expect(resultsIn({ tasks: [{ cmd: "a" }, { stdout: "x" }] })).toEqual([]);
    expect(resultsIn({ tasks: "a" })).toEqual([]);
    expect(resultsIn([])).toEqual([]);
    expect(resultsIn({ tasks: Array.from({ length: 257 }, () => ({ cmd: "a" })) })).toEqual([]);
  });

  it("takes a task's commands as text or as objects with a catalog, dropping what is neither", () => {
    const task = {
      options: {
        commands: [
          "echo hi",
          { command: "lshw -json", catalog: { source: "lshw", format: "json" }, acceptedResponseCodes: [1, "x"] },
          { command: "x", catalog: {} },
          { nope: 1 },
          7,
        ],
      },
    } as never;
    expect(commandsOf(task)).toEqual([
      { cmd: "echo hi" },
      { cmd: "lshw -json", catalog: true, source: "lshw", format: "json", acceptedResponseCodes: [1] },
      { cmd: "x", catalog: true, source: "unknown", format: "raw" },
    ]);
    expect(commandsOf({ options: { commands: "uptime" } } as never)).toEqual([{ cmd: "uptime" }]);
  });
});
