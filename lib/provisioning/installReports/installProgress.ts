import type { ObmSetting } from "../obmServices/obmSetting";
import { finishTask, markFromMachine } from "../workflowEngine/progress";
import type { Workflow } from "../workflowEngine/workflow";
import type { MachineEvent } from "./installReport";
import { isStage } from "./machineEvent";

/** The stage the shipped install scripts report (start, then finish SUCCESS or FAIL). */
export const INSTALL_STAGE = "install";
/** cloud-init's last stage: its finish is the end of the installed system's boot. */
export const FIRST_BOOT_STAGE = "modules-final";

/**
 * What one event from the machine does to its waiting install task. Pure; answers the same
 * workflow when nothing changes (most events: they are kept in the report, not the workflow).
 * - the first event marks the installer started;
 * - `install` finishing SUCCESS marks the system installed, and ends the task when
 *   `waitForFirstBoot` is false (RackHD's tasks, without the option, end at their callback);
 * - `modules-final` finishing SUCCESS after that, with `waitForFirstBoot`, ends it succeeded;
 * - a stage finishing FAIL ends it failed, with the machine's words, as the installer's failure;
 *   once installed, only `modules-final` failing does (the first boot's failure).
 */
export function applyMachineEvent(
  workflow: Workflow,
  taskId: string,
  event: MachineEvent,
  obmSettings: readonly ObmSetting[] | undefined,
  now: Date,
): Workflow {
  const task = workflow.tasks[taskId];
  if (workflow._status !== "running" || task?.state !== "running") return workflow;
  let next = task.installerStartedAt || task.installedAt ? workflow : markFromMachine(workflow, taskId, "installerStartedAt", now);
  if (event.type !== "finish" || !isStage(event)) return next;
  if (event.result === "FAIL") {
    const installed = task.installedAt !== undefined;
    // The installed system's earlier stages may fail a module (cloud-init's locale module in an
    // image without `locales`, say) and still boot: only its last stage failing fails the install;
    // the others are in the timeline.
    if (installed && event.name !== FIRST_BOOT_STAGE) return next;
    const what = installed ? "The installed system's first boot failed" : "The installer reported a failure";
    return finishTask(
      next,
      taskId,
      {
        state: "failed",
        error: `${what} (${event.name}): ${event.description || "no description"}`,
        reason: installed ? "first-boot-failed" : "installer-failed",
      },
      obmSettings,
      now,
    );
  }
  if (event.name === INSTALL_STAGE && !task.installedAt) {
    next = markFromMachine(next, taskId, "installedAt", now);
    // `waitForFirstBoot: false`: the installer's word is the end. RackHD's tasks (no such option) wait for their callback.
    if (task.options.waitForFirstBoot === false) return finishTask(next, taskId, { state: "succeeded" }, obmSettings, now);
  }
  if (event.name === FIRST_BOOT_STAGE && task.installedAt && task.options.waitForFirstBoot === true) {
    return finishTask(markFromMachine(next, taskId, "firstBootAt", now), taskId, { state: "succeeded" }, obmSettings, now);
  }
  return next;
}
