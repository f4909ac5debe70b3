import { bootProfile } from "../../../../lib/provisioning/boot/bootService";
import { seedDocument } from "../../../../lib/provisioning/cloudInit/seedService";
import { REPORT_LIMITS } from "../../../../lib/provisioning/installReports/installReport";
import { acceptEvent, acceptLogChunk, readInstallLog } from "../../../../lib/provisioning/installReports/reportService";
import { nodeTimeline } from "../../../../lib/provisioning/installReports/timeline";
import { cancelNodeWorkflow, getWorkflow, startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { later, memoryStores } from "../services/setUp";
import { API, aMachine, bootedImageInstall, cloudInitEvent, MAC } from "./support";

const taskOf = (workflow: { tasks: Record<string, any> }) => Object.values(workflow.tasks).find((task) => task.label === "install-os");

describe("an image install, as its machine reports it (issue 26)", () => {
  it("renders the machine's credential into its kernel line and install script, and the seed into the script", async () => {
    const stores = memoryStores();
    const { profile, installScript, reportUrl, credential, node } = await bootedImageInstall(stores);
    expect(profile).toMatch(/INSTALL_SCRIPT=http:\/\/svc\.example\/api\/current\/templates\/install-image\.sh\?nodeId=\w+&token=/);
    expect(reportUrl).toBe(`http://svc.example/api/current/reports/${credential}`);
    expect(installScript).toContain(`"seedfrom":"http://svc.example/api/current/nocloud/${credential}/"`);
    expect(installScript).toContain("image_url='http://svc.example/api/current/files/debian-12.raw.gz'");
    expect(installScript).toContain('wget -q -O - "$image_url" | gunzip -c | dd of="$disk"');
    // Only hashes are kept: neither the profile's nor the script's secret is in the stored record.
    const kept = JSON.stringify(await stores.instances.get(node.id));
    expect(kept).not.toContain(credential.split(".")[1]);
    // The seed answers to the script's credential: meta-data with a new instance id for this install.
    expect(await seedDocument(stores, credential, "meta-data", API, later(4))).toMatch(
      /^instance-id: "i-[0-9a-f]{16}"\nlocal-hostname: "web-1"/,
    );
  });

  it("ends succeeded when the installed system's first boot finishes, and the timeline says each step", async () => {
    const stores = memoryStores();
    const { node, workflow, credential } = await bootedImageInstall(stores);
    await acceptEvent(stores, credential, cloudInitEvent("start", "install", "", "The image installer started"), later(10));
    expect(taskOf(await getWorkflow(stores, workflow.id, later(11)))).toMatchObject({
      state: "running",
      installerStartedAt: later(10).toISOString(),
    });
    await acceptEvent(stores, credential, cloudInitEvent("finish", "install", "SUCCESS"), later(20));
    // cloud-init's steps inside a stage, and its other stages, change nothing.
    await acceptEvent(stores, credential, cloudInitEvent("finish", "init-network/config-ssh", "FAIL"), later(30));
    await acceptEvent(stores, credential, cloudInitEvent("finish", "modules-config", "SUCCESS"), later(31));
    expect(taskOf(await getWorkflow(stores, workflow.id, later(32)))).toMatchObject({
      state: "running",
      installedAt: later(20).toISOString(),
    });
    const receipt = await acceptEvent(stores, credential, cloudInitEvent("finish", "modules-final", "SUCCESS"), later(40));
    expect(receipt).toEqual({ accepted: true, events: 5, workflow: { id: workflow.id, status: "succeeded" } });
    expect(taskOf(await getWorkflow(stores, workflow.id, later(41)))).toMatchObject({
      state: "succeeded",
      firstBootAt: later(40).toISOString(),
    });
    const timeline = await nodeTimeline(stores, node.id, later(50));
    expect(timeline.workflow).toMatchObject({ id: workflow.id, status: "succeeded" });
    expect(timeline.workflow?.failure).toBeUndefined();
    const whats = timeline.entries.map((entry) => entry.what);
    expect(whats).toEqual(
      expect.arrayContaining([
        "the machine booted the task's profile",
        "the machine fetched its install script",
        "the installer started reporting",
        "the installer finished writing the system",
        "the installed system's first boot finished",
        "finish modules-final SUCCESS",
        "task succeeded",
      ]),
    );
    expect(timeline.entries.map((entry) => entry.at)).toEqual([...timeline.entries.map((entry) => entry.at)].sort());
  });

  it("gives a task that has not ended (running, or not yet started) no end in the timeline, and no entry without its time", async () => {
    const stores = memoryStores();
    const { node, workflow, credential } = await bootedImageInstall(stores);
    await acceptEvent(stores, credential, cloudInitEvent("start", "install", "", "The image installer started"), later(10));
    // A task after the install that has not started yet (as a graph with one more step has).
    const stored = await getWorkflow(stores, workflow.id, later(11));
    const install = taskOf(stored)!;
    const waiting = {
      ...install,
      instanceId: "after-1",
      label: "after",
      state: "pending",
      waitingOn: { [install.instanceId]: "succeeded" },
      startedAt: undefined,
      installerStartedAt: undefined,
    };
    const added = await stores.workflows.update(
      stored.instanceId,
      (current) => ({ ...current, tasks: { ...current.tasks, "after-1": waiting } }),
      stored,
    );
    expect(added?.tasks["after-1"]).toBeDefined();
    const running = await getWorkflow(stores, workflow.id, later(11));
    const states = Object.values(running.tasks).map((task) => task.state);
    expect(states).toEqual(expect.arrayContaining(["running", "pending"]));
    const timeline = await nodeTimeline(stores, node.id, later(11));
    for (const entry of timeline.entries) expect(entry.at).toEqual(expect.any(String));
    const ends = timeline.entries.filter((entry) => /^task (?!started)/.test(entry.what));
    // Only the tasks that ended before the install (if the graph has any) have an end, each with its state.
    const ended = Object.values(running.tasks).filter((task) => task.state !== "running" && task.finishedAt);
    expect(ends.map((entry) => entry.task).sort()).toEqual(ended.map((task) => task.label).sort());
    expect(ends.every((entry) => entry.what !== "task " && !entry.what.endsWith("running"))).toBe(true);
  });

  it("answers the whole timeline of a failed install: each task's steps and end, the machine's events, oldest first", async () => {
    const stores = memoryStores();
    const { node, workflow, credential } = await bootedImageInstall(stores);
    await acceptEvent(stores, credential, cloudInitEvent("start", "install", "", "The image installer started"), later(10));
    await acceptEvent(stores, credential, cloudInitEvent("finish", "install", "FAIL", "disk gone"), later(20));
    const at = (ms: number) => later(ms).toISOString();
    const service = (ms: number, what: string, task?: string) => ({ at: at(ms), source: "service", what, ...(task && { task }) });
    const machine = (ms: number, what: string) => ({ at: at(ms), source: "machine", what, task: "install-os" });
    const timeline = await nodeTimeline(stores, node.id, later(50));
    expect(timeline).toEqual({
      node: node.id,
      instanceId: expect.stringMatching(/^i-[0-9a-f]{16}$/),
      workflow: {
        id: workflow.id,
        name: "Install a disk image",
        injectableName: "Graph.InstallImage",
        status: "failed",
        failure: expect.objectContaining({ reason: "installer-failed", task: "install-os", at: at(20) }),
      },
      entries: [
        service(1, "workflow Graph.InstallImage started"),
        service(1, "task started", "set-boot-pxe"),
        service(1, "task succeeded", "set-boot-pxe"),
        service(1, "task started", "reboot"),
        service(1, "task succeeded", "reboot"),
        service(1, "task started", "install-os"),
        machine(2, "the machine booted the task's profile"),
        machine(3, "the machine fetched its install script"),
        machine(10, "the installer started reporting"),
        {
          at: at(10),
          source: "machine",
          what: "start install",
          event: { type: "start", name: "install", description: "The image installer started", origin: "cloudinit" },
        },
        service(20, "task failed: The installer reported a failure (install): disk gone", "install-os"),
        {
          at: at(20),
          source: "machine",
          what: "finish install FAIL",
          event: { type: "finish", name: "install", description: "disk gone", result: "FAIL", origin: "cloudinit" },
        },
      ],
      eventsDropped: 0,
      logs: [],
    });
  });

  it("answers a node with no workflow and no report: only its id", async () => {
    const stores = memoryStores();
    const node = await aMachine(stores);
    expect(await nodeTimeline(stores, node.id, later(1))).toEqual({ node: node.id, entries: [], eventsDropped: 0, logs: [] });
  });

  it("ends at the installer's word with waitForFirstBoot: false", async () => {
    const stores = memoryStores();
    const { workflow, credential } = await bootedImageInstall(stores, { waitForFirstBoot: false });
    expect((await acceptEvent(stores, credential, cloudInitEvent("finish", "install", "SUCCESS"), later(20))).workflow).toEqual({
      id: workflow.id,
      status: "succeeded",
    });
  });

  it("fails with the installer's words and its log when it reports a failure; the log is readable", async () => {
    const stores = memoryStores();
    const { node, workflow, credential } = await bootedImageInstall(stores);
    await acceptLogChunk(
      stores,
      credential,
      { name: "installer", seq: 1, body: Buffer.from("dd: /dev/vda: No space left on device\n") },
      later(9),
    );
    const receipt = await acceptEvent(
      stores,
      credential,
      cloudInitEvent("finish", "install", "FAIL", "could not write debian-12.raw.gz to /dev/vda"),
      later(10),
    );
    expect(receipt.workflow).toEqual({ id: workflow.id, status: "failed" });
    const failed = await getWorkflow(stores, workflow.id, later(11));
    expect(failed.failure).toEqual({
      reason: "installer-failed",
      message: "The installer reported a failure (install): could not write debian-12.raw.gz to /dev/vda",
      task: "install-os",
      taskId: taskOf(failed).instanceId,
      at: later(10).toISOString(),
      timeline: `nodes/${node.id}/timeline`,
    });
    expect((await readInstallLog(stores, node, "installer", undefined, later(12))).toString()).toBe(
      "dd: /dev/vda: No space left on device\n",
    );
    expect((await nodeTimeline(stores, node.id, later(12))).logs).toEqual([
      { name: "installer", parts: 1, bytes: 38, path: `nodes/${node.id}/install-logs/installer` },
    ]);
  });

  it("fails the first boot only when its last stage fails: an earlier stage's failed module is in the timeline", async () => {
    const stores = memoryStores();
    const { node, workflow, credential } = await bootedImageInstall(stores);
    await acceptEvent(stores, credential, cloudInitEvent("finish", "install", "SUCCESS"), later(20));
    expect((await acceptEvent(stores, credential, cloudInitEvent("finish", "modules-config", "FAIL"), later(30))).workflow?.status).toBe(
      "running",
    );
    const receipt = await acceptEvent(
      stores,
      credential,
      cloudInitEvent("finish", "modules-final", "FAIL", "running modules for final"),
      later(40),
    );
    expect(receipt.workflow?.status).toBe("failed");
    expect((await getWorkflow(stores, workflow.id, later(41))).failure).toMatchObject({
      reason: "first-boot-failed",
      message: "The installed system's first boot failed (modules-final): running modules for final",
    });
    expect((await nodeTimeline(stores, node.id, later(42))).entries.map((entry) => entry.what)).toContain("finish modules-config FAIL");
  });

  it("says which step a stalled install stopped at when it times out", async () => {
    const cases: [string, (stores: ReturnType<typeof memoryStores>, credential: string) => Promise<unknown>][] = [
      ["no-install-script", async () => undefined],
      ["installer-silent", (stores, credential) => acceptEvent(stores, credential, cloudInitEvent("start", "install", ""), later(10))],
      [
        "first-boot-silent",
        (stores, credential) => acceptEvent(stores, credential, cloudInitEvent("finish", "install", "SUCCESS"), later(10)),
      ],
    ];
    for (const [reason, act] of cases) {
      const stores = memoryStores();
      const { workflow, credential } = await bootedImageInstall(stores, { _taskTimeout: 60_000 });
      if (reason === "no-install-script") {
        // Reset what the script fetch recorded: a machine that booted and never fetched its script.
        await stores.workflows.update(workflow.instanceId, (current) => ({
          ...current,
          tasks: Object.fromEntries(Object.entries(current.tasks).map(([id, task]) => [id, { ...task, templateFetchedAt: undefined }])),
        }));
      }
      await act(stores, credential);
      const ended = await getWorkflow(stores, workflow.id, later(3_600_000));
      expect([reason, ended._status, ended.failure?.reason]).toEqual([reason, "failed", reason]);
      expect(ended.failure?.message).toMatch(/^Task timed out after 60000 ms: /);
    }
  });

  it("names a machine that never booted, and a cancelled install", async () => {
    const stores = memoryStores();
    const node = await aMachine(stores, "n9", "52:54:00:00:00:09");
    const workflow = await startWorkflow(
      stores,
      node.id,
      { name: "Graph.InstallImage", options: { "install-os": { image: "x.raw", _taskTimeout: 1000 } } },
      API,
      later(1),
    );
    expect((await getWorkflow(stores, workflow.id, later(5000))).failure).toMatchObject({ reason: "never-booted", task: "install-os" });
    const again = await startWorkflow(
      stores,
      node.id,
      { name: "Graph.InstallImage", options: { "install-os": { image: "x.raw" } } },
      API,
      later(6000),
    );
    expect((await cancelNodeWorkflow(stores, node.id, later(7000))).failure).toMatchObject({
      reason: "cancelled",
      message: "Cancelled by request",
    });
    expect(again.id).not.toBe(workflow.id);
  });

  it("keeps a chatty machine's first and latest events, within the bound", async () => {
    const stores = memoryStores();
    const { node, credential } = await bootedImageInstall(stores);
    for (let index = 0; index < REPORT_LIMITS.events + 30; index += 1) {
      await acceptEvent(stores, credential, cloudInitEvent("progress", `step-${index}/x`), later(10 + index));
    }
    const report = (await stores.installReports.get(node.id))!;
    expect(report.events).toHaveLength(REPORT_LIMITS.events);
    expect(report.eventsDropped).toBe(30);
    expect(report.events[0].name).toBe("step-0/x");
    expect(report.events.at(-1)!.name).toBe(`step-${REPORT_LIMITS.events + 29}/x`);
    expect((await nodeTimeline(stores, node.id, later(1000))).eventsDropped).toBe(30);
  });

  it("starts afresh on the next install: the old credentials and reports name nothing", async () => {
    const stores = memoryStores();
    const first = await bootedImageInstall(stores, { waitForFirstBoot: false });
    await acceptEvent(stores, first.credential, cloudInitEvent("finish", "install", "SUCCESS"), later(20));
    await startWorkflow(
      stores,
      first.node.id,
      { name: "Graph.InstallImage", options: { "install-os": { image: "debian-12.raw.gz" } } },
      API,
      later(30),
    );
    await bootProfile(stores, [MAC], "10.0.0.5", API, later(31));
    await expect(acceptEvent(stores, first.credential, cloudInitEvent("start", "install", ""), later(32))).rejects.toThrow("No such seed");
    expect(await nodeTimeline(stores, first.node.id, later(33))).toMatchObject({ logs: [] });
    expect((await nodeTimeline(stores, first.node.id, later(33))).entries.some((entry) => entry.source === "machine" && entry.event)).toBe(
      false,
    );
  });
});
