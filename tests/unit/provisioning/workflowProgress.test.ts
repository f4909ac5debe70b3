import { ValidationError } from "../../../lib/errors";
import { apiContextFor } from "../../../lib/provisioning/apiContext";
import { graphDefinition } from "../../../lib/provisioning/graphs/graphLibrary";
import { buildWorkflow } from "../../../lib/provisioning/workflowEngine/buildWorkflow";
import {
  advanceWorkflow,
  cancelWorkflow,
  completeWaitingTask,
  waitingInstallTask,
} from "../../../lib/provisioning/workflowEngine/progress";
import type { Workflow } from "../../../lib/provisioning/workflowEngine/workflow";

const api = apiContextFor("http://172.31.128.1:8080");
const t0 = new Date("2026-11-22T10:00:00.000Z");
const noop = [{ service: "noop-obm-service", config: {} }];
const centos = (options: Record<string, unknown> = {}) =>
  buildWorkflow(
    graphDefinition("Graph.InstallCentOS")!,
    {
      "install-os": { version: "7.0", repo: "{{api.server}}/Centos/7.0", rootPassword: "root", ...options },
    },
    "1234abcd1234abcd1234abcd",
    api,
    t0,
  );
const states = (workflow: Workflow) => Object.fromEntries(Object.values(workflow.tasks).map((task) => [task.label, task.state]));

describe("buildWorkflow", () => {
  it("renders options with api.server and seals passwords into crypt hashes", () => {
    const workflow = centos({ users: [{ name: "ops", password: "opspass", uid: 1010 }] });
    const install = Object.values(workflow.tasks).find((task) => task.label === "install-os")!;
    expect(install.options.repo).toBe("http://172.31.128.1:8080/Centos/7.0");
    expect(install.options.rootPassword).toBe("REDACTED");
    expect(install.options.rootEncryptedPassword).toMatch(/^\$6\$/);
    expect(install.options.users).toEqual([
      { name: "ops", password: "REDACTED", uid: 1010, encryptedPassword: expect.stringMatching(/^\$6\$/) },
    ]);
    expect(JSON.stringify(workflow)).not.toContain("opspass");
    expect(JSON.stringify(workflow)).not.toContain('"root"');
    expect(workflow).toMatchObject({ _status: "running", injectableName: "Graph.InstallCentOS", node: "1234abcd1234abcd1234abcd" });
    expect(workflow.context).toEqual({ target: "1234abcd1234abcd1234abcd", graphId: workflow.instanceId });
  });

  it("refuses a template value that does not exist (RackHD's missing-version quirk)", () => {
    expect(() => buildWorkflow(graphDefinition("Graph.InstallCentOS")!, {}, "n", api, t0)).toThrow(
      "Value does not exist for options.version",
    );
  });

  it("refuses malformed users", () => {
    expect(() => centos({ users: [{ name: "x" }] })).toThrow(ValidationError);
    expect(() => centos({ users: "x" })).toThrow(ValidationError);
  });

  it("wires waitOn to task instance ids", () => {
    const workflow = centos();
    const byLabel = Object.fromEntries(Object.values(workflow.tasks).map((task) => [task.label, task]));
    expect(byLabel.reboot.waitingOn).toEqual({ [byLabel["set-boot-pxe"].instanceId]: "finished" });
    expect(byLabel["install-os"].waitingOn).toEqual({ [byLabel.reboot.instanceId]: "succeeded" });
  });
});

describe("advanceWorkflow", () => {
  it("runs noop OBM steps at once and leaves the install task waiting for the node", () => {
    const workflow = advanceWorkflow(centos(), noop, t0);
    expect(states(workflow)).toEqual({ "set-boot-pxe": "succeeded", reboot: "succeeded", "install-os": "running" });
    expect(workflow._status).toBe("running");
    expect(waitingInstallTask(workflow)?.label).toBe("install-os");
  });

  it("answers the same object when nothing changes", () => {
    const workflow = advanceWorkflow(centos(), noop, t0);
    expect(advanceWorkflow(workflow, noop, new Date(t0.getTime() + 1000))).toBe(workflow);
  });

  it("times the install task out after its _taskTimeout, without timers, and fails the graph", () => {
    const workflow = advanceWorkflow(centos({ _taskTimeout: 5000 }), noop, t0);
    expect(advanceWorkflow(workflow, noop, new Date(t0.getTime() + 4999))._status).toBe("running");
    const late = advanceWorkflow(workflow, noop, new Date(t0.getTime() + 60_000));
    expect(late._status).toBe("failed");
    const task = waitingInstallTask(workflow)!;
    expect(late.tasks[task.instanceId]).toMatchObject({ state: "timeout", finishedAt: "2026-11-22T10:00:05.000Z" });
  });

  it("uses the install graph's one-hour default time-out", () => {
    const workflow = advanceWorkflow(centos(), noop, t0);
    expect(advanceWorkflow(workflow, noop, new Date(t0.getTime() + 3_599_999))._status).toBe("running");
    expect(advanceWorkflow(workflow, noop, new Date(t0.getTime() + 3_600_000))._status).toBe("failed");
  });

  it.each([
    [[], "No OBM service assigned to this node."],
    [[...noop, { service: "ipmi-obm-service", config: {} }], "More than one OBM service assigned to this node."],
    [[{ service: "snmp-obm-service", config: { host: "h" } }], "snmp-obm-service cannot reboot"],
  ])("fails the reboot (and the graph) with OBM settings %p", (settings, message) => {
    const workflow = advanceWorkflow(centos(), settings, t0);
    expect(workflow._status).toBe("failed");
    const reboot = Object.values(workflow.tasks).find((task) => task.label === "reboot")!;
    expect(reboot.state).toBe("failed");
    expect(reboot.error).toContain(message);
    // set-boot-pxe failed too, but it has ignoreFailure; install-os never ran.
    expect(states(workflow)["install-os"]).toBe("cancelled");
  });

  it.each(["ipmi-obm-service", "redfish-obm-service"])(
    "hands %s's OBM steps to a relay: set-boot-pxe runs until its job ends",
    (service) => {
      const workflow = advanceWorkflow(centos(), [{ service, config: { host: "h" } }], t0);
      expect(workflow._status).toBe("running");
      const pxe = Object.values(workflow.tasks).find((task) => task.label === "set-boot-pxe")!;
      expect(pxe).toMatchObject({ state: "running", relayJob: pxe.instanceId });
      expect(states(workflow).reboot).toBe("pending");
    },
  );

  it("honours an explicit obmServiceName the node lacks", () => {
    const workflow = buildWorkflow(
      graphDefinition("Graph.Reboot.Node")!,
      { defaults: { obmServiceName: "ipmi-obm-service" } },
      "n",
      api,
      t0,
    );
    const done = advanceWorkflow(workflow, noop, t0);
    expect(done._status).toBe("failed");
    expect(Object.values(done.tasks)[0].error).toBe("Node should have OBM settings for service: ipmi-obm-service");
  });

  it("runs Graph.noop-example to success, parallel branches included", () => {
    const workflow = advanceWorkflow(buildWorkflow(graphDefinition("Graph.noop-example")!, {}, "n", api, t0), [], t0);
    expect(workflow._status).toBe("succeeded");
    expect(Object.values(states(workflow))).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
  });
});

describe("completion and cancel", () => {
  it("completes the waiting install task and succeeds the graph", () => {
    const workflow = advanceWorkflow(centos(), noop, t0);
    const done = completeWaitingTask(workflow, noop, new Date(t0.getTime() + 1000));
    expect(done._status).toBe("succeeded");
    expect(states(done)["install-os"]).toBe("succeeded");
    expect(completeWaitingTask(done, noop, t0)).toBe(done);
  });

  it("does not complete a task that has already timed out", () => {
    const workflow = advanceWorkflow(centos({ _taskTimeout: 10 }), noop, t0);
    expect(completeWaitingTask(workflow, noop, new Date(t0.getTime() + 1000))._status).toBe("failed");
  });

  it("cancels the graph and its unfinished tasks", () => {
    const cancelled = cancelWorkflow(advanceWorkflow(centos(), noop, t0), t0);
    expect(cancelled._status).toBe("cancelled");
    expect(states(cancelled)).toEqual({ "set-boot-pxe": "succeeded", reboot: "succeeded", "install-os": "cancelled" });
  });
});
