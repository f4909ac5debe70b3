import type { Workflow, WorkflowTask } from "./model";

/**
 * Where a workflow stands, in plain words: what it waits for, or where and why it stopped, with
 * the time and the last thing the machine sent (its boot profile fetched, its install script
 * fetched, its completion). No DOM here: the unit tests run it in Node.
 */
export interface Diagnosis {
  tone: "done" | "waiting" | "problem";
  headline: string;
  details: string[];
}

type Clock = (iso: string) => string;
const defaultClock: Clock = (iso) => new Date(iso).toLocaleString();

/** A task that waits for the machine: it boots a profile (an install, or discovery's microkernel). */
const bootsMachine = (task: WorkflowTask): boolean => typeof task.options.profile === "string";
/** An install boots an installer that fetches its script; discovery boots a microkernel that calls back. */
const installs = (task: WorkflowTask): boolean => typeof task.options.installScript === "string";

/** The last thing the machine sent for a task that boots it. */
export function lastFromMachine(task: WorkflowTask, at: Clock = defaultClock): string {
  if (task.state === "succeeded" && task.finishedAt)
    return installs(task)
      ? `it reported its install complete at ${at(task.finishedAt)}`
      : `its microkernel called back at ${at(task.finishedAt)}`;
  if (task.templateFetchedAt)
    return `it fetched its install script (${String(task.options.installScript ?? "the template")}) at ${at(task.templateFetchedAt)}`;
  if (task.bootedAt) return `it fetched its boot profile at ${at(task.bootedAt)}`;
  return "nothing: it never fetched its boot profile";
}

function waitingOnMachine(task: WorkflowTask, at: Clock): Diagnosis {
  const since = task.startedAt ? ` since ${at(task.startedAt)}` : "";
  if (!task.bootedAt)
    return {
      tone: "waiting",
      headline: `Waiting for the machine to network-boot (${task.label}${since}).`,
      details: [
        "The machine has not fetched its boot profile yet.",
        "Check that it is powered on, boots from the network first, and that its DHCP answer points at this service's /api/current/profiles.",
      ],
    };
  if (!installs(task))
    return {
      tone: "waiting",
      headline: `The machine booted the discovery microkernel at ${at(task.bootedAt)} and has not called back yet.`,
      details: [
        "The microkernel asks this service for its work (bootstrap.js): check that it can reach the API server its kernel line names.",
      ],
    };
  if (!task.templateFetchedAt)
    return {
      tone: "waiting",
      headline: `The machine booted its installer at ${at(task.bootedAt)} and has not fetched its install script yet.`,
      details: [
        `The installer's kernel and initrd come from ${String(task.options.repo ?? "the repository")}: check it can be reached from the machine.`,
      ],
    };
  return {
    tone: "waiting",
    headline: `Installing: the machine fetched its install script at ${at(task.templateFetchedAt)}.`,
    details: ["The installer is running; the task ends when the machine reports completion."],
  };
}

/** The task that ended the workflow: the first to fail or time out, else the first cancelled. */
function culprit(tasks: WorkflowTask[]): WorkflowTask | undefined {
  const byEnd = [...tasks].sort((a, b) => (a.finishedAt ?? "").localeCompare(b.finishedAt ?? ""));
  return byEnd.find((task) => task.state === "failed" || task.state === "timeout") ?? byEnd.find((task) => task.state === "cancelled");
}

export function diagnose(workflow: Workflow, at: Clock = defaultClock): Diagnosis {
  const tasks = Object.values(workflow.tasks);
  if (workflow._status === "succeeded")
    return { tone: "done", headline: `Finished at ${at(workflow.updatedAt)}: every task succeeded.`, details: [] };
  if (workflow._status === "running") {
    const running = tasks.filter((task) => task.state === "running");
    const onMachine = running.find(bootsMachine);
    if (onMachine) return waitingOnMachine(onMachine, at);
    if (running.length === 0) return { tone: "waiting", headline: "Starting.", details: [] };
    return {
      tone: "waiting",
      headline: `Running ${running.map((task) => task.label).join(", ")}.`,
      details: running.filter((task) => task.startedAt).map((task) => `${task.label} started at ${at(task.startedAt!)}.`),
    };
  }
  const task = culprit(tasks);
  const when = task?.finishedAt ? at(task.finishedAt) : at(workflow.updatedAt);
  const verb = { failed: "failed", timeout: "timed out", cancelled: "was cancelled" }[workflow._status];
  const headline = task
    ? `${task.label} ${task.state === "timeout" ? "timed out" : task.state === "failed" ? "failed" : "was cancelled"} at ${when}.`
    : `The workflow ${verb} at ${when}.`;
  const details: string[] = [];
  if (workflow.failure) details.push(`Reason: ${workflow.failure.reason}.`);
  if (task?.error) details.push(`Why: ${task.error}.`);
  if (task && bootsMachine(task)) details.push(`The last the machine sent: ${lastFromMachine(task, at)}.`);
  return { tone: workflow._status === "cancelled" ? "waiting" : "problem", headline, details };
}
