import { pxeOnce } from "../../../../lib/provisioning/graphs/graphTypes";
import type { Node } from "../../../../lib/provisioning/nodes/node";
import { finishJob } from "../../../../lib/provisioning/relays/job";
import { relayTaskOutcomes } from "../../../../lib/provisioning/relays/relayTasks";
import type { Workflow } from "../../../../lib/provisioning/workflowEngine/workflow";
import { later, memoryStores, T0 } from "./setUp";

/**
 * RackHD's OBM tasks as relay jobs (relays/relayTasks.ts), one task at a time: the job each task
 * action makes, the options it takes, which OBM setting it goes through, and the task's outcome as
 * the job ends. The workflow is one running OBM task; the node has a site, an IPMI and a Redfish setting.
 */
const IPMI = { service: "ipmi-obm-service", config: { host: "10.0.0.9", user: "admin", password: "secret" } };
const REDFISH = { service: "redfish-obm-service", config: { uri: "https://10.0.0.8", user: "root", password: "calvin" } };
const node = (extra: Record<string, unknown> = {}): Node =>
  ({
    id: "0123456789abcdef01234567",
    name: "n1",
    identifiers: ["52:54:00:00:00:01"],
    obmSettings: [IPMI, REDFISH],
    site: "s1",
    ...extra,
  }) as unknown as Node;
const workflowWith = (options: Record<string, unknown>, state = "running"): Workflow =>
  ({
    instanceId: "w1",
    injectableName: "Graph.Test",
    node: "0123456789abcdef01234567",
    tasks: { t1: { instanceId: "t1", label: "obm", state, relayJob: "job-t1", options: { obmServiceName: null, ...options } } },
  }) as unknown as Workflow;

async function jobOf(options: Record<string, unknown>, subject = node()) {
  const stores = memoryStores();
  const outcomes = await relayTaskOutcomes(stores, workflowWith(options), subject, T0);
  return { stores, outcomes, job: await stores.relayJobs.get("job-t1") };
}

describe("an OBM task's relay job", () => {
  it.each([
    ["setBootPxe", { kind: "bootDevice", device: "pxe", uefi: false, persistent: false }],
    ["setBootDisk", { kind: "bootDevice", device: "disk", uefi: false, persistent: false }],
    ["reboot", { kind: "power", action: "reboot" }],
    ["powerOn", { kind: "power", action: "on" }],
    ["powerOff", { kind: "power", action: "off" }],
    ["readBios", { kind: "inventory", what: "bios" }],
    ["readFirmware", { kind: "inventory", what: "firmware" }],
    ["ejectMedia", { kind: "virtualMedia", action: "eject" }],
  ])("%s is the relay action %j, for the workflow, by the first OBM setting", async (action, expected) => {
    const { job, outcomes } = await jobOf({ action });
    expect(outcomes).toEqual([]);
    expect(job).toMatchObject({
      id: "job-t1",
      site: "s1",
      action: expected,
      obm: { service: "ipmi-obm-service" },
      task: { workflow: "w1", taskId: "t1" },
      requestedBy: "workflow Graph.Test",
      state: "queued",
    });
  });

  it("goes through the OBM setting the task names, and fails saying so when the node has none of it or the action is unknown", async () => {
    expect((await jobOf({ action: "powerOn", obmServiceName: "redfish-obm-service" })).job?.obm.service).toBe("redfish-obm-service");
    expect((await jobOf({ action: "powerOn", obmServiceName: "" })).job?.obm.service).toBe("ipmi-obm-service");
    for (const [options, subject] of [
      [{ action: "powerOn", obmServiceName: "amt-obm-service" }, node()],
      [{ action: "powerOn" }, node({ obmSettings: [] })],
      [{ action: "dance" }, node()],
      [{ action: "toString" }, node()],
    ] as const) {
      const { outcomes, job } = await jobOf(options, subject);
      expect(job).toBeUndefined();
      expect(outcomes).toEqual([{ taskId: "t1", state: "failed", error: `No relay action for ${options.action}` }]);
    }
  });

  it("fails the task with the reason when no job can be made (a node of no site), and makes none", async () => {
    const { outcomes, job } = await jobOf({ action: "powerOn" }, node({ site: undefined }));
    expect(job).toBeUndefined();
    expect(outcomes).toEqual([
      { taskId: "t1", state: "failed", error: expect.stringMatching(/^Node 0123456789abcdef01234567 belongs to no site/) },
    ]);
  });

  it("sets BIOS attributes only from a flat object of 1 to 64 strings, finite numbers and booleans with names of at most 128 characters", async () => {
    const attributes = { ProcTurboMode: "Disabled", ProcCoreDisable: 2, SriovGlobalEnable: true, ["A".repeat(128)]: "x" };
    expect((await jobOf({ action: "setBios", attributes })).job?.action).toEqual({ kind: "biosSettings", attributes });
    const many = Object.fromEntries(Array.from({ length: 64 }, (_, index) => [`A${index}`, index]));
    expect((await jobOf({ action: "setBios", attributes: many })).job?.action).toMatchObject({ kind: "biosSettings" });
    for (const wrong of [
      undefined,
      null,
      "ProcTurboMode=Disabled",
      ["ProcTurboMode"],
      {},
      { ...many, A64: 1 },
      { Nested: { a: 1 } },
      { Missing: null },
      { NotANumber: Number.NaN },
      { Infinite: Number.POSITIVE_INFINITY },
      { ["A".repeat(129)]: "x" },
    ]) {
      const { outcomes, job } = await jobOf({ action: "setBios", attributes: wrong });
      expect(job).toBeUndefined();
      expect(outcomes).toEqual([{ taskId: "t1", state: "failed", error: "No relay action for setBios" }]);
    }
  });

  it("boots a node set to virtual media from its image where the others boot PXE; its disk boot stays a disk boot", async () => {
    const media = node({ virtualMedia: {}, secureBoot: { state: "enabled", reportedAt: T0.toISOString() } });
    const workflow = {
      ...workflowWith({ action: "setBootPxe" }),
      tasks: {
        ...workflowWith({ action: "setBootPxe" }).tasks,
        boot: {
          instanceId: "boot",
          state: "pending",
          options: { kernelUri: "http://s/common/vmlinuz", initrdUri: "http://s/common/initrd" },
        },
      },
    } as unknown as Workflow;
    const stores = memoryStores();
    await relayTaskOutcomes(stores, workflow, media, T0);
    expect((await stores.relayJobs.get("job-t1"))?.action).toEqual({
      kind: "virtualMedia",
      action: "insert",
      uefi: true,
      boot: { kernel: "/common/vmlinuz", initrd: "/common/initrd", args: expect.arrayContaining(["MEDIA_PROFILE=1"]) },
    });
    expect((await jobOf({ action: "setBootDisk" }, media)).job?.action).toEqual({
      kind: "bootDevice",
      device: "disk",
      uefi: true,
      persistent: false,
    });
    // A workflow with no microkernel to put on the image: the task fails with why.
    expect((await jobOf({ action: "setBootPxe" }, media)).outcomes).toEqual([
      { taskId: "t1", state: "failed", error: "Workflow Graph.Test boots no microkernel (no task names a kernelUri and an initrdUri)" },
    ]);
  });

  it("ends the task as its job ends: succeeded, or failed with the action and the BMC's words (or just failed), and asks nothing twice", async () => {
    const { stores } = await jobOf({ action: "powerOff" });
    const again = await relayTaskOutcomes(stores, workflowWith({ action: "powerOff" }), node(), later(1000));
    expect(again).toEqual([]);
    expect(await stores.relayJobs.list()).toHaveLength(1);
    const end = async (result: { ok: boolean; output: string; error?: string }) => {
      await stores.relayJobs.update("job-t1", (job) =>
        finishJob({ ...job, state: "queued", result: undefined }, result, "r1", later(2000)),
      );
      return relayTaskOutcomes(stores, workflowWith({ action: "powerOff" }), node(), later(3000));
    };
    expect(await end({ ok: true, output: "Chassis Power Control: Down/Off" })).toEqual([{ taskId: "t1", state: "succeeded" }]);
    expect(await end({ ok: false, output: "", error: "Unable to establish IPMI v2 / RMCP+ session" })).toEqual([
      { taskId: "t1", state: "failed", error: "power off: Unable to establish IPMI v2 / RMCP+ session" },
    ]);
    expect(await end({ ok: false, output: "" })).toEqual([{ taskId: "t1", state: "failed", error: "power off: failed" }]);
    // A task that is not running is not the relay's.
    expect(await relayTaskOutcomes(stores, workflowWith({ action: "powerOff" }, "succeeded"), node(), later(4000))).toEqual([]);
  });
});

describe("a graph's one-time network boot", () => {
  it("sets the boot once (its failure ignored), then resets once that is done, after what it is told to wait on", () => {
    expect(pxeOnce()).toEqual([
      { label: "set-boot-pxe", taskName: "Task.Obm.Node.PxeBoot", ignoreFailure: true },
      { label: "reboot", taskName: "Task.Obm.Node.Reboot", waitOn: { "set-boot-pxe": "finished" } },
    ]);
    expect(pxeOnce({ "analyze-repo": "succeeded" }, "reboot-start")).toEqual([
      { label: "set-boot-pxe", taskName: "Task.Obm.Node.PxeBoot", ignoreFailure: true, waitOn: { "analyze-repo": "succeeded" } },
      { label: "reboot-start", taskName: "Task.Obm.Node.Reboot", waitOn: { "set-boot-pxe": "finished" } },
    ]);
  });
});
