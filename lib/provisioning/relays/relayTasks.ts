import { isDomainError } from "../../errors";
import type { BiosValue } from "../../wire/relay";
import { mediaBootFor, virtualMediaOf } from "../boot/virtualMedia";
import { type Node, secureBootOf } from "../nodes/node";
import type { StoresOf } from "../ports";
import { relayTasksRunning } from "../workflowEngine/progress";
import type { Workflow, WorkflowTask } from "../workflowEngine/workflow";
import type { RelayTaskOutcome } from "../workflows/taskKinds";
import { describeAction, type JobAction } from "./job";
import { currentJob, enqueueJob } from "./jobService";

/** RackHD's OBM task actions, as relay work. `reboot` powers a machine that is off on, and resets one that is on. */
const ACTIONS: Record<string, JobAction> = {
  setBootPxe: { kind: "bootDevice", device: "pxe", uefi: false, persistent: false },
  setBootDisk: { kind: "bootDevice", device: "disk", uefi: false, persistent: false },
  reboot: { kind: "power", action: "reboot" },
  powerOn: { kind: "power", action: "on" },
  powerOff: { kind: "power", action: "off" },
  // Redfish only (issue 53): the BIOS attributes and boot order, the firmware inventory, into catalogs.
  readBios: { kind: "inventory", what: "bios" },
  readFirmware: { kind: "inventory", what: "firmware" },
};

/** The most BIOS attributes one task sets (a server's BIOS has a few hundred; a task sets a handful). */
const BIOS_ATTRIBUTES_MAX = 64;

/** setBios's attributes, from its task's options: a JSON object of at most 64 strings, numbers and booleans; undefined otherwise. */
function biosAttributes(value: unknown): Record<string, BiosValue> | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  const fits = (entry: unknown) =>
    typeof entry === "string" || typeof entry === "boolean" || (typeof entry === "number" && Number.isFinite(entry));
  if (entries.length === 0 || entries.length > BIOS_ATTRIBUTES_MAX || !entries.every(([name, entry]) => name.length <= 128 && fits(entry)))
    return undefined;
  return Object.fromEntries(entries) as Record<string, BiosValue>;
}

/**
 * The relay action of an OBM task for this node. The one-time PXE boot is a UEFI one for a machine
 * whose firmware is UEFI, as its microkernel reported (`secureBoot` enabled or disabled: BIOS says
 * unsupported): a UEFI server told to boot PXE in legacy mode boots nothing (issue 50: the job said
 * `"uefi": false` for a Secure Boot server). A node set to boot by virtual media (boot/virtualMedia.ts)
 * boots its image once where the others boot PXE once; `ejectMedia` takes the image out. A string:
 * why the task has no action.
 */
function actionFor(task: WorkflowTask, node: Node, workflow: Workflow): JobAction | string | undefined {
  const name = String(task.options.action);
  if (name === "setBios") {
    const attributes = biosAttributes(task.options.attributes);
    return attributes && { kind: "biosSettings", attributes };
  }
  if (name === "ejectMedia") return { kind: "virtualMedia", action: "eject" };
  const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name] : undefined;
  if (action?.kind !== "bootDevice") return action;
  const firmware = secureBootOf(node);
  const uefi = firmware === "enabled" || firmware === "disabled";
  const media = action.device === "pxe" ? virtualMediaOf(node) : undefined;
  if (!media) return { ...action, uefi };
  const boot = mediaBootFor(node, workflow, media);
  return typeof boot === "string" ? boot : { kind: "virtualMedia", action: "insert", uefi, boot };
}

/**
 * For each OBM task of the workflow that a relay runs: its job (queued on first sight, under the
 * task's id, so asking again makes no second job), and the outcome of those whose job has ended:
 * what the BMC said, or why no relay did it.
 */
export async function relayTaskOutcomes(
  stores: StoresOf<"relayJobs">,
  workflow: Workflow,
  node: Node,
  now: Date,
): Promise<RelayTaskOutcome[]> {
  const running = relayTasksRunning(workflow);
  const outcomes: RelayTaskOutcome[] = [];
  for (const task of running) {
    const outcome = await outcomeOf(stores, workflow, task, node, now);
    if (outcome) outcomes.push(outcome);
  }
  return outcomes;
}

async function outcomeOf(
  stores: StoresOf<"relayJobs">,
  workflow: Workflow,
  task: WorkflowTask,
  node: Node,
  now: Date,
): Promise<RelayTaskOutcome | undefined> {
  const id = task.relayJob as string;
  let job = await stores.relayJobs.get(id);
  if (!job) {
    const action = actionFor(task, node, workflow);
    const wanted = task.options.obmServiceName;
    const obm = node.obmSettings.find((setting) => (typeof wanted === "string" && wanted !== "" ? setting.service === wanted : true));
    if (typeof action === "string") return { taskId: task.instanceId, state: "failed", error: action };
    if (!action || !obm) return { taskId: task.instanceId, state: "failed", error: `No relay action for ${String(task.options.action)}` };
    try {
      const request = {
        id,
        node,
        obm,
        action,
        task: { workflow: workflow.instanceId, taskId: task.instanceId },
        requestedBy: `workflow ${workflow.injectableName}`,
      };
      job = await enqueueJob(stores, request, now);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      return { taskId: task.instanceId, state: "failed", error: error.message };
    }
  }
  const current = await currentJob(stores, job, now);
  // A Redfish read's catalog was stored as its result arrived (relayResults/reportJobResult.ts), before its task could end.
  if (current.state === "succeeded") return { taskId: task.instanceId, state: "succeeded" };
  if (current.state === "failed") {
    return { taskId: task.instanceId, state: "failed", error: `${describeAction(current.action)}: ${current.result?.error ?? "failed"}` };
  }
  return undefined;
}
