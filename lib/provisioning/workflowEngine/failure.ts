import type { FailureReason, WorkflowFailure, WorkflowTask } from "./workflow";

/**
 * Why a machine may never ask for its profile although it boots from the network: its firmware
 * refused the loader it was offered (iPXE is not signed by the UEFI CA).
 */
const SECURE_BOOT_HINT =
  " If its firmware has Secure Boot on, it refuses an unsigned loader such as iPXE: boot it through shim and GRUB (docs/boot.md, Machines with Secure Boot on).";

/** A task's time-out, named after the last thing its machine did. */
export function timeoutOf(task: WorkflowTask, timeout: number): { reason: FailureReason; error: string } {
  const seconds = Math.round(timeout / 1000);
  if (task.kind === "bootstrap") {
    return {
      reason: task.bootedAt ? "installer-silent" : "never-booted",
      error: `The machine did not start the discovery microkernel within ${seconds} s (it never asked for its commands): is ${String(task.options.kernelUri)} served, and does the machine boot from the network?${task.bootedAt ? "" : SECURE_BOOT_HINT}`,
    };
  }
  const timedOut = `Task timed out after ${timeout} ms`;
  if (task.kind !== "install") return { reason: "timed-out", error: timedOut };
  const { reason, why } = installStall(task);
  return { reason, error: `${timedOut}: ${why}` };
}

/** Where an install stopped, from the last step its machine took. */
function installStall(task: WorkflowTask): { reason: FailureReason; why: string } {
  if (task.installedAt && task.options.waitForFirstBoot === true) {
    return {
      reason: "first-boot-silent",
      why: `the installer finished at ${task.installedAt}, but the installed system's first boot never reported its end: does it boot from its disk, and can its cloud-init reach the service?`,
    };
  }
  if (task.installedAt)
    return { reason: "no-callback", why: `the installer finished at ${task.installedAt}, but the machine never called back` };
  if (task.installerStartedAt) {
    return {
      reason: "installer-silent",
      why: `the installer started at ${task.installerStartedAt}, then went silent: its last reports and logs are in the node's timeline`,
    };
  }
  if (task.templateFetchedAt)
    return { reason: "no-callback", why: `the machine fetched its install script at ${task.templateFetchedAt} but never called back` };
  if (task.bootedAt && typeof task.options.installScript === "string" && task.options.installScript !== "") {
    return {
      reason: "no-install-script",
      why: `the machine booted its installer at ${task.bootedAt} but never fetched its install script (${task.options.installScript}): can the installer reach the service?`,
    };
  }
  if (task.bootedAt) return { reason: "installer-silent", why: `the machine booted its installer at ${task.bootedAt}, then went silent` };
  return {
    reason: "never-booted",
    why: `the machine never booted from the network: is it powered on, set to boot from the network, and does its DHCP point at the service?${SECURE_BOOT_HINT}`,
  };
}

/** The reason a failed task gives: its own, else what its kind says (an OBM task's is the BMC's). */
const reasonOf = (task: WorkflowTask): FailureReason => {
  if (task.reason) return task.reason;
  if (task.state === "cancelled") return "cancelled";
  if (task.state === "timeout") return "timed-out";
  return task.kind === "obm" ? "power-control-failed" : "failed";
};

/** The failure a workflow's failed tasks amount to: the first to fail (not one cancelled because of it). */
export function failureOf(tasks: readonly WorkflowTask[], node: string): WorkflowFailure | undefined {
  const failed = tasks
    .filter((task) => (task.state === "failed" || task.state === "timeout") && !task.ignoreFailure)
    .sort((a, b) => (a.finishedAt ?? "").localeCompare(b.finishedAt ?? ""));
  const task = failed[0] ?? tasks.find((task) => task.state === "cancelled");
  if (!task) return undefined;
  return {
    reason: reasonOf(task),
    message: task.error ?? `Task ${task.label} ended ${task.state}`,
    task: task.label,
    taskId: task.instanceId,
    at: task.finishedAt ?? task.updatedAt,
    ...(node !== "" && { timeline: `nodes/${node}/timeline` }),
  };
}
