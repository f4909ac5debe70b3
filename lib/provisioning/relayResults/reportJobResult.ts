import { recordPollResult } from "../pollers/pollerService";
import type { StoresOf } from "../ports";
import { catalogueInventory } from "../relays/inventoryCatalog";
import type { RelayJob } from "../relays/job";
import { recordResult } from "../relays/jobService";
import type { RelayCredential } from "../relays/site";
import { finishTask } from "../workflowEngine/progress";
import { settleEffects, type WorkflowStores } from "../workflows/workflowService";

/** The last power state a relay read from a node's BMC, kept on the node. */
export interface PowerState {
  state: "on" | "off";
  readAt: string;
}

const POWER_SAID = /\b(?:Chassis Power is|PowerState["\s:]*)\s*"?(on|off)\b/i;

/** The power state a poll read: IPMI's chassis status, or a Redfish system's PowerState; else none. */
function polledPower(command: string, value: unknown): "on" | "off" | undefined {
  const read = (value ?? {}) as { power?: unknown; powerState?: unknown };
  if (command === "chassis" && typeof read.power === "boolean") return read.power ? "on" : "off";
  if (command === "powerState" && (read.powerState === "On" || read.powerState === "Off")) return read.powerState === "On" ? "on" : "off";
  return undefined;
}

/**
 * A relay's result, as a use case (a folder of its own, above relays/ and pollers/: a poll is a
 * relay job, pollers/ enqueues it through relays/, and its result becomes the poller's sample here): the job ends (the first result wins), the workflow task it ran
 * ends with what the BMC said and the graph moves on, and a power state the BMC reported is kept on
 * the node. A result sent again changes nothing.
 */
export async function reportJobResult(
  stores: WorkflowStores & StoresOf<"pollerSamples">,
  relay: RelayCredential,
  id: string,
  result: { leaseId: string; ok: boolean; output: string; error?: string },
  now: Date,
): Promise<RelayJob> {
  const { job, first } = await recordResult(stores, relay, id, result, now);
  if (!first) return job;
  if (job.action.kind === "poll") {
    const value = await recordPollResult(stores, job.action.poller, job.action.command, job.result ?? { ok: false, output: "" }, now);
    const state = polledPower(job.action.command, value);
    if (state) await stores.nodes.update(job.node, (node) => ({ ...node, power: { state, readAt: now.toISOString() } }));
    return job;
  }
  const power = powerAfter(job);
  if (power) await stores.nodes.update(job.node, (node) => ({ ...node, power: { state: power, readAt: now.toISOString() } }));
  // A Redfish read's answer becomes the node's catalog before its task ends (the next task may read it).
  const unkept = job.state === "succeeded" ? await catalogueInventory(stores, job, now) : undefined;
  if (job.task) {
    const { workflow: workflowId, taskId } = job.task;
    const outcome =
      job.state === "succeeded" && !unkept
        ? { state: "succeeded" as const }
        : { state: "failed" as const, error: unkept ?? job.result?.error ?? "failed" };
    const node = await stores.nodes.get(job.node);
    const finished = await stores.workflows.update(workflowId, (stored) => finishTask(stored, taskId, outcome, node?.obmSettings, now));
    if (finished) await settleEffects(stores, finished, now);
  }
  return job;
}

/** What the job leaves the power at: what the BMC said (status), or what a successful action set. */
function powerAfter(job: RelayJob): "on" | "off" | undefined {
  if (job.state !== "succeeded" || job.action.kind !== "power") return undefined;
  const said = POWER_SAID.exec(job.result?.output ?? "")?.[1]?.toLowerCase();
  if (said === "on" || said === "off") return said;
  if (job.action.action === "off" || job.action.action === "soft") return "off";
  if (job.action.action === "status") return undefined;
  return "on";
}
