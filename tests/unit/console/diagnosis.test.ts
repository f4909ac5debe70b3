import { layOut } from "../../../console/dag";
import { diagnose } from "../../../console/diagnosis";
import type { Workflow, WorkflowTask } from "../../../console/model";

const at = (iso: string) => iso.slice(11, 16); // HH:MM, so that the texts do not depend on the locale

function task(label: string, change: Partial<WorkflowTask> = {}): WorkflowTask {
  return {
    instanceId: label,
    label,
    injectableName: `Task.${label}`,
    friendlyName: label,
    options: {},
    waitingOn: {},
    state: "pending",
    createdAt: "2026-11-23T08:00:00.000Z",
    ...change,
  };
}

function workflow(status: Workflow["_status"], tasks: WorkflowTask[]): Workflow {
  return {
    id: "w",
    instanceId: "w",
    name: "Install",
    injectableName: "Graph.InstallCentOS",
    _status: status,
    node: "n",
    context: { target: "n", graphId: "Graph.InstallCentOS" },
    definition: {},
    tasks: Object.fromEntries(tasks.map((one) => [one.instanceId, one])),
    createdAt: "2026-11-23T08:00:00.000Z",
    updatedAt: "2026-11-23T09:30:00.000Z",
  };
}

const install = (change: Partial<WorkflowTask>) =>
  task("install-os", { options: { profile: "install-centos.ipxe", installScript: "centos-ks", repo: "http://mirror/centos" }, ...change });

describe("why a workflow is where it is, in plain words", () => {
  it("waits for a machine that never booted, saying what to check", () => {
    const found = diagnose(workflow("running", [install({ state: "running", startedAt: "2026-11-23T08:01:00.000Z" })]), at);
    expect(found.tone).toBe("waiting");
    expect(found.headline).toBe("Waiting for the machine to network-boot (install-os since 08:01).");
    expect(found.details[0]).toBe("The machine has not fetched its boot profile yet.");
  });

  it("says the installer booted but never asked for its script, naming the repository", () => {
    const running = install({ state: "running", bootedAt: "2026-11-23T08:05:00.000Z" });
    expect(diagnose(workflow("running", [running]), at)).toMatchObject({
      headline: "The machine booted its installer at 08:05 and has not fetched its install script yet.",
      details: [expect.stringContaining("http://mirror/centos")],
    });
    const installing = install({ state: "running", bootedAt: "2026-11-23T08:05:00.000Z", templateFetchedAt: "2026-11-23T08:06:00.000Z" });
    expect(diagnose(workflow("running", [installing]), at).headline).toBe("Installing: the machine fetched its install script at 08:06.");
  });

  it("tells discovery's microkernel from an installer", () => {
    const bootstrap = task("bootstrap-ubuntu", {
      state: "running",
      options: { profile: "linux.ipxe" },
      startedAt: "2026-11-23T08:01:00.000Z",
      bootedAt: "2026-11-23T08:02:00.000Z",
    });
    expect(diagnose(workflow("running", [bootstrap]), at).headline).toBe(
      "The machine booted the discovery microkernel at 08:02 and has not called back yet.",
    );
  });

  it("names the task that timed out, when, and the last thing the machine sent", () => {
    const timedOut = install({
      state: "timeout",
      bootedAt: "2026-11-23T08:05:00.000Z",
      templateFetchedAt: "2026-11-23T08:06:00.000Z",
      finishedAt: "2026-11-23T09:05:00.000Z",
      error: "Task timed out after 3600000 ms",
    });
    const later = task("reboot", {
      state: "cancelled",
      finishedAt: "2026-11-23T09:05:01.000Z",
      error: "A task it waited on did not end as required",
    });
    expect(diagnose(workflow("timeout", [timedOut, later]), at)).toEqual({
      tone: "problem",
      headline: "install-os timed out at 09:05.",
      details: ["Why: Task timed out after 3600000 ms.", "The last the machine sent: it fetched its install script (centos-ks) at 08:06."],
    });
  });

  it("says a failed power task's error, and a finished workflow when it finished", () => {
    const failed = task("reboot", { state: "failed", finishedAt: "2026-11-23T08:02:00.000Z", error: "No OBM setting" });
    expect(diagnose(workflow("failed", [failed]), at)).toMatchObject({
      headline: "reboot failed at 08:02.",
      details: ["Why: No OBM setting."],
    });
    expect(diagnose(workflow("succeeded", [task("a", { state: "succeeded" })]), at).headline).toBe(
      "Finished at 09:30: every task succeeded.",
    );
  });
});

describe("the DAG layout", () => {
  it("puts a task below the tasks it waits on, with an arrow from each", () => {
    const tasks = {
      a: task("a"),
      b: task("b", { waitingOn: { a: "succeeded" } }),
      c: task("c", { waitingOn: { a: "finished" } }),
      d: task("d", { waitingOn: { b: "succeeded", c: "succeeded" } }),
    };
    const placed = layOut(tasks);
    const y = Object.fromEntries(placed.tasks.map((one) => [one.id, one.y]));
    expect(y.a).toBeLessThan(y.b);
    expect(y.b).toBe(y.c);
    expect(y.c).toBeLessThan(y.d);
    expect(placed.edges.map((edge) => `${edge.from}>${edge.to}:${edge.when}`).sort()).toEqual([
      "a>b:succeeded",
      "a>c:finished",
      "b>d:succeeded",
      "c>d:succeeded",
    ]);
    expect(placed.width).toBeGreaterThan(0);
  });
});
