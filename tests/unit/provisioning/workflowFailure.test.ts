import { failureOf, timeoutOf } from "../../../lib/provisioning/workflowEngine/failure";
import type { WorkflowTask } from "../../../lib/provisioning/workflowEngine/workflow";

/** lib/provisioning/workflows/failure.ts: why a workflow failed, named after what its machine last did. */
const task = (fields: Partial<WorkflowTask>): WorkflowTask => ({
  instanceId: fields.label ?? "t",
  label: "t",
  name: "Task",
  injectableName: "Task",
  friendlyName: "Task",
  implementsTask: "Task.Base",
  runJob: "Job",
  kind: "install",
  options: {},
  properties: {},
  waitingOn: {},
  ignoreFailure: false,
  state: "running",
  terminalOnStates: [],
  createdAt: "2026-11-26T00:00:00.000Z",
  updatedAt: "2026-11-26T00:00:01.000Z",
  ...fields,
});

describe("a task's time-out, named after the last thing its machine did", () => {
  const at = (minute: number) => `2026-11-26T00:0${minute}:00.000Z`;

  it("an install: each step its machine reached gives the reason and names when it was reached", () => {
    const cases: [Partial<WorkflowTask>, string, string][] = [
      [{ installedAt: at(5), options: { waitForFirstBoot: true } }, "first-boot-silent", at(5)],
      [{ installedAt: at(5), options: { waitForFirstBoot: "yes" } }, "no-callback", at(5)],
      [{ installerStartedAt: at(4), templateFetchedAt: at(3) }, "installer-silent", at(4)],
      [{ templateFetchedAt: at(3), bootedAt: at(2) }, "no-callback", at(3)],
      [{ bootedAt: at(2), options: { installScript: "centos-ks" } }, "no-install-script", "centos-ks"],
      [{ bootedAt: at(2), options: { installScript: "" } }, "installer-silent", at(2)],
      [{ bootedAt: at(2) }, "installer-silent", at(2)],
      [{}, "never-booted", "boot from the network"],
    ];
    for (const [fields, reason, named] of cases) {
      const outcome = timeoutOf(task(fields), 90_000);
      expect([fields, outcome.reason]).toEqual([fields, reason]);
      expect(outcome.error).toMatch(/^Task timed out after 90000 ms: /);
      expect(outcome.error).toContain(named);
    }
  });

  it("the microkernel's boot: booted or not, with the kernel it was to fetch and the seconds waited", () => {
    const booted = timeoutOf(task({ kind: "bootstrap", bootedAt: at(1), options: { kernelUri: "http://x/vmlinuz" } }), 61_400);
    expect(booted.reason).toBe("installer-silent");
    expect(booted.error).toContain("within 61 s");
    expect(booted.error).toContain("http://x/vmlinuz");
    expect(timeoutOf(task({ kind: "bootstrap" }), 1_000).reason).toBe("never-booted");
  });

  it("any other task: timed out, with its time-out", () => {
    expect(timeoutOf(task({ kind: "obm" }), 5_000)).toEqual({ reason: "timed-out", error: "Task timed out after 5000 ms" });
  });
});

describe("the failure a workflow's tasks amount to", () => {
  it("is the first task to fail or time out, not one whose failure is ignored nor one cancelled because of it", () => {
    const tasks = [
      task({ label: "ignored", state: "failed", ignoreFailure: true, finishedAt: "2026-11-26T00:00:01.000Z" }),
      task({ label: "later", state: "failed", error: "second", finishedAt: "2026-11-26T00:00:09.000Z" }),
      task({ label: "first", state: "timeout", finishedAt: "2026-11-26T00:00:05.000Z" }),
      task({ label: "cancelled", state: "cancelled" }),
    ];
    expect(failureOf(tasks, "n1")).toEqual({
      reason: "timed-out",
      message: "Task first ended timeout",
      task: "first",
      taskId: "first",
      at: "2026-11-26T00:00:05.000Z",
      timeline: "nodes/n1/timeline",
    });
  });

  it("gives a task's own reason first, an OBM task's as power control, a cancelled graph's as cancelled", () => {
    expect(failureOf([task({ state: "failed", reason: "installer-failed", error: "disk" })], "n")).toMatchObject({
      reason: "installer-failed",
      message: "disk",
    });
    expect(failureOf([task({ kind: "obm", state: "failed" })], "n")?.reason).toBe("power-control-failed");
    expect(failureOf([task({ state: "failed" })], "n")?.reason).toBe("failed");
    const cancelled = failureOf([task({ label: "c", state: "cancelled" })], "");
    expect(cancelled).toMatchObject({ reason: "cancelled", at: "2026-11-26T00:00:01.000Z" });
    expect(cancelled).not.toHaveProperty("timeline");
    expect(failureOf([task({ state: "succeeded" }), task({ state: "failed", ignoreFailure: true })], "n")).toBeUndefined();
  });
});
