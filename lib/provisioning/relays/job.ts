import type { JobAction, RelayJob } from "../../wire/relay";
import type { RecordStore } from "../recordStore";

/**
 * Work for a site's relays: one BMC action on one node. A job is handed to one relay at a time
 * (its lease); a relay that dies lets the lease run out and another relay takes the job again.
 * The first result wins and a result sent again changes nothing. A job no relay takes before its
 * deadline fails, saying no relay of the site is online. Its shape is the wire's (lib/wire/relay.ts):
 * the relay reads it as the service writes it.
 */
export {
  BOOT_DEVICES,
  type BootDevice,
  type JobAction,
  type JobState,
  POWER_ACTIONS,
  type PowerAction,
  type RelayJob,
} from "../../wire/relay";

/** How long a relay holds a job before another may take it, and how long a job waits for a relay. */
export const LEASE_MS = 60_000;
export const PICKUP_DEADLINE_MS = 120_000;
/** A job tried this often by relays that never reported fails. */
export const MAX_ATTEMPTS = 3;

export const isFinished = (job: RelayJob): boolean => job.state === "succeeded" || job.state === "failed";

/**
 * The relay jobs' store: a record store, and the jobs of a site not finished yet, oldest first,
 * which is what a relay's every poll reads (issue 28: its cost is its site's open jobs, not every
 * job the service ever made).
 */
export interface RelayJobStore extends RecordStore<RelayJob> {
  openForSite(site: string): Promise<RelayJob[]>;
}

/**
 * Actions that must not run twice (a second reset is a second outage): a relay says when it is
 * about to act on one, and a job whose relay stopped after saying so is not handed out again.
 */
export const actsOnce = (action: JobAction): boolean => action.kind === "power" && ["reset", "cycle", "reboot"].includes(action.action);

const leaseOver = (job: RelayJob, now: Date): boolean => job.lease !== undefined && Date.parse(job.lease.until) <= now.getTime();

/** Takeable now: queued, or leased by a relay whose lease ran out. */
export function isTakeable(job: RelayJob, now: Date): boolean {
  if (job.state === "queued") return Date.parse(job.deadline) > now.getTime();
  return job.state === "leased" && leaseOver(job, now) && job.actingSince === undefined;
}

/** Why a job that is not finished should fail now, if it should. */
export function failureDue(job: RelayJob, now: Date): string | undefined {
  if (isFinished(job)) return undefined;
  if (job.state === "queued" && Date.parse(job.deadline) <= now.getTime()) {
    return `No relay online for site ${job.site}: no relay took the job within ${PICKUP_DEADLINE_MS / 1000} s`;
  }
  if (job.state === "leased" && leaseOver(job, now) && job.actingSince !== undefined) {
    return `The relay stopped while acting (${describeAction(job.action)}): whether the BMC acted is unknown, and it is not done twice; read the power state before asking again`;
  }
  if (job.state === "leased" && leaseOver(job, now) && job.attempts >= MAX_ATTEMPTS) {
    return `The site's relays took the job ${job.attempts} times and never reported a result`;
  }
  return undefined;
}

/** The relay holding the lease is about to act on the BMC (only for actions that act once). */
export function markActing(job: RelayJob, leaseId: string, now: Date): RelayJob {
  if (job.state !== "leased" || job.lease?.id !== leaseId || !actsOnce(job.action)) return job;
  return { ...job, actingSince: now.toISOString(), updatedAt: now.toISOString() };
}

export function leaseJob(job: RelayJob, relay: string, leaseId: string, now: Date, leaseMs = LEASE_MS): RelayJob {
  const stamp = now.toISOString();
  return {
    ...job,
    state: "leased",
    ...(job.lease && { pastLeases: [...(job.pastLeases ?? []), job.lease.id].slice(-MAX_ATTEMPTS) }),
    lease: { id: leaseId, relay, until: new Date(now.getTime() + leaseMs).toISOString() },
    attempts: job.attempts + 1,
    updatedAt: stamp,
  };
}

export function finishJob(job: RelayJob, result: { ok: boolean; output: string; error?: string }, relay: string, now: Date): RelayJob {
  if (isFinished(job)) return job;
  const stamp = now.toISOString();
  return { ...job, state: result.ok ? "succeeded" : "failed", result: { ...result, relay, at: stamp }, updatedAt: stamp };
}

/** Whether `leaseId` is a lease this job handed out: the current one or one before it. */
export const isLeaseOf = (job: RelayJob, leaseId: string): boolean => job.lease?.id === leaseId || (job.pastLeases ?? []).includes(leaseId);

/** What a job is, in words (the audit, a task's error). */
export function describeAction(action: JobAction): string {
  if (action.kind === "power") return `power ${action.action}`;
  if (action.kind === "identify") return `identify ${action.on ? "on" : "off"}`;
  if (action.kind === "poll") return `poll ${action.command}`;
  if (action.kind === "inventory") return `read the ${action.what === "bios" ? "BIOS attributes and boot order" : "firmware inventory"}`;
  if (action.kind === "biosSettings") return `set BIOS attributes ${Object.keys(action.attributes).join(", ")} (at the next reset)`;
  if (action.kind === "virtualMedia")
    return action.action === "eject" ? "eject the virtual media" : `boot once from virtual media${action.uefi ? " (UEFI)" : ""}`;
  return `boot once from ${action.device}${action.uefi ? " (UEFI)" : ""}`;
}

/** The job answered to an operator: no OBM credentials. */
export function viewJob(job: RelayJob): Omit<RelayJob, "obm"> & { obm: { service: string } } {
  return { ...job, obm: { service: job.obm.service } };
}
