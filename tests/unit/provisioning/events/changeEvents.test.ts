import fc from "fast-check";
import {
  attributeAction,
  hookChangeEvents,
  nodeChangeEvents,
  relayCredentialChangeEvents,
  relayJobChangeEvents,
  workflowChangeEvents,
} from "../../../../lib/provisioning/events/changeEvents";
import { envelope, eventName, subjectOf } from "../../../../lib/provisioning/events/event";
import type { Hook } from "../../../../lib/provisioning/hooks/hook";
import { buildNode, type Node, parseNewNode } from "../../../../lib/provisioning/nodes/node";
import type { RelayJob } from "../../../../lib/provisioning/relays/job";
import type { RelayCredential } from "../../../../lib/provisioning/relays/site";
import type { Workflow, WorkflowTask } from "../../../../lib/provisioning/workflowEngine/workflow";
import { ENVELOPE_KEYS } from "../../../support/envelope";

const node = (fields: Partial<Node> = {}): Node => ({
  ...buildNode(parseNewNode({ name: "rack-1" }), "65f0c0ffee0123456789abcd", new Date("2026-11-24T00:00:00.000Z")),
  ...fields,
});

const task = (fields: Partial<WorkflowTask> = {}): WorkflowTask =>
  ({ instanceId: "t1", label: "install", state: "pending", ...fields }) as WorkflowTask;

const workflow = (fields: Partial<Workflow> = {}): Workflow =>
  ({
    id: "w",
    instanceId: "5f0c0ffee0123456789abcd0",
    name: "Install Debian",
    injectableName: "Graph.InstallImage",
    _status: "running",
    node: "65f0c0ffee0123456789abcd",
    tasks: { t1: task(), t2: task({ instanceId: "t2", label: "reboot" }) },
    ...fields,
  }) as Workflow;

describe("events from changes (issue 27)", () => {
  it("names a node's addition and removal, as RackHD's node.added / node.removed", () => {
    const [added] = nodeChangeEvents(undefined, node());
    expect(added).toEqual({
      type: "node",
      action: "added",
      severity: "information",
      typeId: node().id,
      nodeId: node().id,
      data: { name: "rack-1", nodeType: "compute" },
    });
    expect(nodeChangeEvents(node(), undefined).map(eventName)).toEqual(["node.removed"]);
    expect(nodeChangeEvents(undefined, undefined)).toEqual([]);
  });

  it("follows RackHD's attribute rule: assigned from empty, updated, unassigned to empty, nothing when unchanged", () => {
    expect(attributeAction(null, "sku-1")).toBe("assigned");
    expect(attributeAction("sku-1", "sku-2")).toBe("updated");
    expect(attributeAction("sku-1", null)).toBe("unassigned");
    expect(attributeAction(["a"], ["a"])).toBeUndefined();
    expect(attributeAction([], [])).toBeUndefined();
    fc.assert(fc.property(fc.jsonValue(), (value) => attributeAction(value, structuredClone(value)) === undefined));
    const events = nodeChangeEvents(
      node({ tags: ["a"] }),
      node({ sku: "s1", tags: [], obmSettings: [{ service: "ipmi-obm-service", config: { password: "p" } }] }),
    );
    expect(events.map(eventName).sort()).toEqual(["node.obms.assigned", "node.sku.assigned", "node.tags.unassigned"]);
    // An OBM event names the services, never their configs (passwords).
    expect(JSON.stringify(events)).not.toContain('"p"');
    expect(events.find((event) => event.action === "obms.assigned")!.data.obms).toEqual(["ipmi-obm-service"]);
  });

  it("tells a graph's start, each task's progress, install stages and its end with its failure", () => {
    expect(workflowChangeEvents(undefined, workflow()).map(eventName)).toEqual(["graph.started"]);
    const running = workflow({ tasks: { t1: task({ state: "running" }), t2: task({ instanceId: "t2", label: "reboot" }) } });
    const booted = workflow({ tasks: { t1: task({ state: "running", bootedAt: "2026-11-24T00:01:00.000Z" }), t2: running.tasks.t2 } });
    expect(workflowChangeEvents(running, booted).map((event) => [eventName(event), event.data.stage])).toEqual([
      ["install.progress", "booted"],
    ]);
    const finished = workflow({
      _status: "failed",
      failure: { reason: "installer-failed", message: "no image", task: "install", taskId: "t1", at: "2026-11-24T00:02:00.000Z" },
      tasks: { t1: task({ state: "failed", bootedAt: "2026-11-24T00:01:00.000Z" }), t2: running.tasks.t2 },
    });
    const events = workflowChangeEvents(booted, finished);
    expect(events.map(eventName)).toEqual(["graph.progress.updated", "graph.finished"]);
    // on-core's GraphProgress shapes (issue 35 §14): the graph's progress and the task's own, under taskProgress.progress.
    expect(events[0].data.progress).toEqual({ value: 1, maximum: 2, percentage: "50%", description: 'Task "install" finished with error' });
    expect(events[0].data.taskProgress).toEqual({
      taskId: "t1",
      taskName: "install",
      state: "failed",
      progress: { value: 100, maximum: 100, description: "Task finished", percentage: "100%" },
    });
    expect(events[1]).toMatchObject({ severity: "critical", data: { status: "failed", failure: { reason: "installer-failed" } } });
    // A graph with no node: RackHD's null.
    expect(workflowChangeEvents(undefined, workflow({ node: "" }))[0].nodeId).toBeNull();
    expect(subjectOf(workflowChangeEvents(undefined, workflow({ node: "" }))[0])).toBe("graph:5f0c0ffee0123456789abcd0");
    expect(workflowChangeEvents(workflow(), undefined)).toEqual([]);
  });

  it("tells a task's start as on-core did: 0 of 100, and the graph's tasks not pending", () => {
    const pending = workflow({ tasks: { t1: task({ state: "pending" }), t2: task({ instanceId: "t2", label: "reboot" }) } });
    const started = workflowChangeEvents(pending, workflow({ tasks: { t1: task({ state: "running" }), t2: pending.tasks.t2 } }));
    expect(started.map(eventName)).toEqual(["graph.progress.updated"]);
    expect(started[0].data).toMatchObject({
      progress: { value: 1, maximum: 2, percentage: "50%", description: 'Task "install" started' },
      taskProgress: { taskId: "t1", state: "running", progress: { value: 0, maximum: 100, description: "Task started", percentage: "0%" } },
    });
  });

  it("tells the whole of a graph that ends as it starts (Graph.noop-example): started, its tasks, finished", () => {
    const done = workflow({
      _status: "succeeded",
      tasks: { t1: task({ state: "succeeded" }), t2: task({ instanceId: "t2", label: "reboot", state: "succeeded" }) },
    });
    const events = workflowChangeEvents(undefined, done);
    expect(events.map(eventName)).toEqual([
      "graph.started",
      "graph.progress.updated",
      "graph.progress.updated",
      "graph.progress.updated",
      "graph.progress.updated",
      "graph.finished",
    ]);
    expect(events[5]).toMatchObject({ severity: "information", data: { status: "succeeded" } });
    expect(events[4].data.progress).toMatchObject({ value: 2, maximum: 2, percentage: "100%" });
  });

  it("announces a node discovered when its discovery graph succeeds, and a machine's first boot finished", () => {
    const discovery = workflow({ injectableName: "Graph.SKU.Discovery" });
    const events = workflowChangeEvents(discovery, { ...discovery, _status: "succeeded" });
    expect(events.map(eventName)).toEqual(["graph.finished", "node.discovered"]);
    const firstBoot = workflowChangeEvents(
      workflow(),
      workflow({ tasks: { t1: task({ firstBootAt: "2026-11-24T00:05:00.000Z" }), t2: workflow().tasks.t2 } }),
    );
    expect(firstBoot.map(eventName)).toEqual(["install.firstboot.finished"]);
  });

  it("reports a BMC action's result once, and not a poller's samples", () => {
    const job = { id: "j", site: "s", node: "n", action: { kind: "power", action: "on" }, state: "leased" } as unknown as RelayJob;
    const done = { ...job, state: "succeeded", result: { ok: true, output: "", relay: "r", at: "2026-11-24T00:00:00.000Z" } } as RelayJob;
    expect(relayJobChangeEvents(job, done).map(eventName)).toEqual(["power.succeeded"]);
    expect(relayJobChangeEvents(done, { ...done, updatedAt: "later" })).toEqual([]);
    const failed = { ...job, result: { ok: false, output: "", error: "BMC unreachable", relay: "r", at: "x" } } as RelayJob;
    expect(relayJobChangeEvents(job, failed)[0]).toMatchObject({
      action: "failed",
      severity: "warning",
      data: { error: "BMC unreachable" },
    });
    const poll = { ...done, action: { kind: "poll" } } as unknown as RelayJob;
    expect(relayJobChangeEvents(job, poll)).toEqual([]);
  });

  it("says when a relay connects (heard from after being offline) and when the service finds it quiet", () => {
    const credential = { id: "r", site: "s", name: "relay-a", secretSha256: "x", createdAt: "2026-11-24T00:00:00.000Z" } as RelayCredential;
    const seen = (at: string, fields: Partial<RelayCredential> = {}) => ({ ...credential, lastSeenAt: at, ...fields });
    expect(relayCredentialChangeEvents(credential, seen("2026-11-24T00:00:10.000Z")).map(eventName)).toEqual(["relay.connected"]);
    // Seen again within the minute: still online, no event.
    expect(relayCredentialChangeEvents(seen("2026-11-24T00:00:10.000Z"), seen("2026-11-24T00:00:40.000Z"))).toEqual([]);
    // Heard from after more than a minute of silence: connected again.
    expect(relayCredentialChangeEvents(seen("2026-11-24T00:00:10.000Z"), seen("2026-11-24T00:05:00.000Z")).map(eventName)).toEqual([
      "relay.connected",
    ]);
    const lost = seen("2026-11-24T00:00:10.000Z", { lostAt: "2026-11-24T00:01:30.000Z" });
    const [event] = relayCredentialChangeEvents(seen("2026-11-24T00:00:10.000Z"), lost);
    expect(event).toMatchObject({ type: "relay", action: "lost", severity: "warning", nodeId: null, data: { site: "s", name: "relay-a" } });
    expect(JSON.stringify(event)).not.toContain("secretSha256");
    expect(relayCredentialChangeEvents(lost, { ...lost, lastSeenAt: "2026-11-24T00:01:40.000Z" }).map(eventName)).toEqual([
      "relay.connected",
    ]);
    expect(relayCredentialChangeEvents(undefined, credential)).toEqual([]);
  });

  it("says when the service disabled a hook, once", () => {
    const hook = { id: "h", url: "https://x.example/", filters: [], events: [], secretGeneration: 1 } as unknown as Hook;
    const disabled = { ...hook, disabledAt: "2026-11-25T00:00:00.000Z", disabledReason: "failing" };
    expect(hookChangeEvents(hook, disabled).map(eventName)).toEqual(["hook.disabled"]);
    expect(hookChangeEvents(disabled, disabled)).toEqual([]);
    expect(hookChangeEvents(undefined, disabled)).toEqual([]);
  });

  it("wraps an event in RackHD's envelope, with its id and sequence", () => {
    const [draft] = nodeChangeEvents(undefined, node());
    const event = {
      ...draft,
      id: "e",
      version: "1.0" as const,
      createdAt: "2026-11-24T00:00:00.000Z",
      subject: draft.nodeId!,
      sequence: 1,
    };
    expect(Object.keys(envelope(event)).sort()).toEqual(ENVELOPE_KEYS);
  });
});
