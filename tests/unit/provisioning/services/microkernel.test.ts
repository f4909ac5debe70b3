import { readFileSync } from "node:fs";
import { join } from "node:path";
import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { bootProfile } from "../../../../lib/provisioning/boot/bootService";
import { acceptResults, commandsOf, nextCommands, resultsIn } from "../../../../lib/provisioning/discovery/microkernel";
import { defineGraph, defineTask } from "../../../../lib/provisioning/graphs/libraryService";
import { findLookups } from "../../../../lib/provisioning/lookups/lookupService";
import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { getWorkflow, startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { later, memoryStores, T0 } from "./setUp";

const api = apiContextFor("http://10.0.0.1:9080");
const MAC = "52:54:00:12:34:56";
const SAMPLE = join(__dirname, "../../../../scripts/sampleMachine");
const sample = (cmd: string): string => {
  if (cmd === "sudo mokutil --sb-state") return "SecureBoot enabled\n";
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
    // Its firmware's Secure Boot, as the microkernel read it, on the node (issue 38).
    expect((await stores.nodes.get(node.id))?.secureBoot).toEqual({ state: "enabled", reportedAt: expect.any(String) });
    expect(sources.has("secure-boot")).toBe(true);
  });

  it("fails a catalog task whose command could not run (exit 126: a BMC but no ipmitool), saying why; the graph goes on (issue 50)", async () => {
    const { stores, node, workflow, caller } = await discovering();
    const why =
      "A BMC is on its KCS interface (/dev/ipmi0), but the microkernel has no ipmitool: its discovery overlay (OVERLAYFS=) was not given or could not be fetched";
    let at = 1;
    for (let round = 0; round < 20; round += 1) {
      const set = await nextCommands(stores, node.id, caller, later(at++));
      if (!set) break;
      const results = set.tasks.map((task) =>
        task.cmd.startsWith("sudo ipmitool")
          ? { cmd: task.cmd, stdout: `${why}\n`, stderr: "", error: { code: 126 } }
          : { cmd: task.cmd, stdout: sample(task.cmd), stderr: "" },
      );
      await acceptResults(stores, node.id, results, caller, later(at++));
    }
    const done = await getWorkflow(stores, workflow.instanceId, later(at));
    const bmc = Object.values(done.tasks).find((task) => task.label === "catalog-bmc");
    expect(bmc).toMatchObject({ state: "failed", error: `sudo ipmitool lan print could not run: ${why}` });
    expect((await stores.catalogs.forNode(node.id)).map((catalog) => catalog.source)).not.toContain("bmc");
    expect(done._status).toBe("succeeded");
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

describe("an operator's commands on the microkernel (Job.Linux.Commands)", () => {
  /** A node in the microkernel with a graph whose one command task runs `commands`. */
  const running = async (commands: unknown[]) => {
    const stores = memoryStores();
    await defineTask(
      stores,
      {
        friendlyName: "Mine",
        injectableName: "Task.Mine",
        implementsTask: "Task.Base.Linux.Commands",
        options: { commands },
        properties: {},
      },
      T0,
    );
    await defineGraph(
      stores,
      {
        friendlyName: "Mine",
        injectableName: "Graph.Mine",
        tasks: [
          { label: "boot", taskName: "Task.Linux.Bootstrap.Ubuntu" },
          { label: "mine", taskName: "Task.Mine", waitOn: { boot: "succeeded" } },
        ],
      },
      T0,
    );
    const node = await createNode(
      stores,
      { name: "n", identifiers: [MAC], obmSettings: [{ service: "noop-obm-service", config: {} }] },
      T0,
    );
    const workflow = await startWorkflow(stores, node.id, { name: "Graph.Mine", options: {} }, api, T0);
    const caller = { token: workflow.bootToken, requireToken: true };
    const set = await nextCommands(stores, node.id, caller, later(1));
    const report = (results: { cmd: string; stdout?: string; error?: unknown }[]) =>
      acceptResults(
        stores,
        node.id,
        results.map((result) => ({ stderr: "", ...result })),
        caller,
        later(2),
      );
    const outcome = async () => {
      const current = await getWorkflow(stores, workflow.instanceId, later(3));
      return Object.values(current.tasks).find((task) => task.label === "mine");
    };
    return { stores, node, set, report, outcome };
  };

  it("stores the outputs marked for cataloging: JSON parsed, raw text as data, unparsable JSON dropped", async () => {
    const { stores, node, set, report, outcome } = await running([
      { command: "facts", catalog: { source: "facts", format: "json" } },
      { command: "uname -a", catalog: { source: "uname" } },
      { command: "broken", catalog: { source: "broken", format: "json" } },
      { command: "quiet", catalog: { source: "quiet" } },
      { command: "not kept" },
    ]);
    expect(set?.tasks.map((task) => task.cmd)).toEqual(["facts", "uname -a", "broken", "quiet", "not kept"]);
    await report([
      { cmd: "facts", stdout: '{"cpus": 4}' },
      { cmd: "uname -a", stdout: "Linux mk 6.1" },
      { cmd: "broken", stdout: "{not json" },
      { cmd: "quiet", stdout: "" },
      { cmd: "not kept", stdout: "anything" },
    ]);
    const catalogs = await stores.catalogs.forNode(node.id);
    expect(catalogs.map((catalog) => [catalog.source, catalog.data])).toEqual([
      ["facts", { cpus: 4 }],
      ["uname", { data: "Linux mk 6.1" }],
    ]);
    expect((await outcome())?.state).toBe("succeeded");
  });

  it("fails the task on a command's exit code it does not accept, and not on one it accepts", async () => {
    const failing = await running([{ command: "a", acceptedResponseCodes: [1] }, { command: "b" }]);
    await failing.report([
      { cmd: "a", error: { code: 1 } },
      { cmd: "b", error: { code: 2 } },
    ]);
    expect(await failing.outcome()).toMatchObject({ state: "failed", error: "Encountered a failure running commands on node" });
    const accepted = await running([{ command: "a", acceptedResponseCodes: [1] }]);
    await accepted.report([{ cmd: "a", error: { code: 1 } }]);
    expect((await accepted.outcome())?.state).toBe("succeeded");
    const odd = await running(["a"]);
    await odd.report([{ cmd: "a", error: "killed" }]);
    expect((await odd.outcome())?.state).toBe("failed");
    const clean = await running(["a"]);
    await clean.report([{ cmd: "a", error: null }]);
    expect((await clean.outcome())?.state).toBe("succeeded");
  });
});
