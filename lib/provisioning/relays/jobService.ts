import { randomUUID } from "node:crypto";
import { ConflictError, isDomainError, NotFoundError, ValidationError } from "../../errors";
import type { Node } from "../nodes/node";
import type { ObmSetting } from "../obmServices/obmSetting";
import type { ProvisioningStores, StoresOf } from "../ports";
import { fitsKey } from "../recordSize";
import {
  failureDue,
  finishJob,
  isFinished,
  isLeaseOf,
  isTakeable,
  type JobAction,
  LEASE_MS,
  leaseJob,
  markActing,
  PICKUP_DEADLINE_MS,
  type RelayJob,
} from "./job";
import type { RelayCredential } from "./site";

export interface JobRequest {
  /** Given by a workflow (its task's instanceId), so that asking twice makes one job. */
  id?: string;
  node: Node;
  obm: ObmSetting;
  action: JobAction;
  task?: RelayJob["task"];
  requestedBy: string;
}

/** Queues a job for the node's site; the same id twice is one job (the first). */
export async function enqueueJob(stores: StoresOf<"relayJobs">, request: JobRequest, now: Date): Promise<RelayJob> {
  const site = request.node.site;
  if (typeof site !== "string" || site === "") {
    throw new ValidationError(
      `Node ${request.node.id} belongs to no site: a relay of its site drives its BMC (PUT /api/1.1/nodes/${request.node.id}/site)`,
    );
  }
  const stamp = now.toISOString();
  const job: RelayJob = {
    id: request.id ?? randomUUID(),
    site,
    node: request.node.id,
    action: request.action,
    obm: { service: request.obm.service, config: request.obm.config },
    ...(request.task && { task: request.task }),
    requestedBy: request.requestedBy,
    state: "queued",
    createdAt: stamp,
    updatedAt: stamp,
    deadline: new Date(now.getTime() + PICKUP_DEADLINE_MS).toISOString(),
    attempts: 0,
  };
  try {
    return await stores.relayJobs.create(job);
  } catch (error) {
    if (!(isDomainError(error) && error.kind === "conflict")) throw error;
    const existing = await stores.relayJobs.get(job.id);
    if (!existing) throw error;
    return existing;
  }
}

/**
 * A job as it is now, derived without a write: failed, by the service, if its deadline or its
 * attempts ran out. What reads jobs (an operator's list) answers this; what writes them anyway
 * (a lease, a workflow's relay task) stores it with `currentJob`.
 */
export function jobAsOf(job: RelayJob, now: Date): RelayJob {
  const why = failureDue(job, now);
  return why ? finishJob(job, { ok: false, output: "", error: why }, "service", now) : job;
}

/** A job as it is now, stored so when its deadline or its attempts ran out (a writer's view). */
export async function currentJob(stores: StoresOf<"relayJobs">, job: RelayJob, now: Date): Promise<RelayJob> {
  if (!failureDue(job, now)) return job;
  return (await stores.relayJobs.update(job.id, (stored) => jobAsOf(stored, now))) ?? job;
}

/** Most jobs one lease request takes. */
const LEASE_MAX = 8;

/**
 * Hands the relay up to `max` jobs of its site that no relay holds, each leased to it alone (an
 * atomic update: two relays polling at once never take the same job). Jobs past their deadline fail.
 */
export async function leaseJobs(
  stores: StoresOf<"relayJobs">,
  relay: RelayCredential,
  max: number,
  now: Date,
  leaseMs = LEASE_MS,
): Promise<RelayJob[]> {
  const wanted = Math.min(Math.max(1, max), LEASE_MAX);
  const leased: RelayJob[] = [];
  const ofSite = await stores.relayJobs.openForSite(relay.site);
  for (const job of ofSite) {
    if (leased.length >= wanted) break;
    const current = await currentJob(stores, job, now);
    if (!isTakeable(current, now)) continue;
    const leaseId = randomUUID();
    const take = (stored: RelayJob) => (isTakeable(stored, now) ? leaseJob(stored, relay.id, leaseId, now, leaseMs) : stored);
    const after = await stores.relayJobs.update(job.id, take);
    if (after?.lease?.id === leaseId) leased.push(after);
  }
  return leased;
}

/**
 * When the site's first job held by a relay can be taken again (its lease runs out), if any: a
 * relay holding its push connection hears of no job then (no job is made), so the lease answer
 * tells it when to lease again (issue 56). A job whose relay said it is acting is never taken again.
 */
export async function nextLeaseEnd(stores: StoresOf<"relayJobs">, site: string, now: Date): Promise<Date | undefined> {
  const ends = (await stores.relayJobs.openForSite(site))
    .filter((job) => job.state === "leased" && job.actingSince === undefined && job.lease !== undefined)
    .map((job) => Date.parse(job.lease!.until))
    .filter((until) => until > now.getTime());
  return ends.length > 0 ? new Date(Math.min(...ends)) : undefined;
}

/**
 * Jobs of a site, newest first, as they are now; an operator's view. A read: an overdue job is
 * shown failed (and why) but not stored so, since a site with no relay online is exactly when an
 * operator reads this (the next lease or the workflow's relay task stores it).
 */
export async function siteJobs(stores: Pick<ProvisioningStores, "relayJobs">, siteId: string, now: Date): Promise<RelayJob[]> {
  const jobs = (await stores.relayJobs.list()).filter((job) => job.site === siteId);
  return jobs.map((job) => jobAsOf(job, now)).reverse();
}

export async function findJob(stores: StoresOf<"relayJobs">, id: string): Promise<RelayJob> {
  const job = fitsKey(id) ? await stores.relayJobs.get(id) : undefined;
  if (!job) throw new NotFoundError(`Could not find job ${id.slice(0, 64)}`);
  return job;
}

/** POST /relay/jobs/{id}/acting: the relay holding the lease is about to act; 409 when it no longer holds it. */
export async function startActing(
  stores: StoresOf<"relayJobs">,
  relay: RelayCredential,
  id: string,
  leaseId: string,
  now: Date,
): Promise<RelayJob> {
  const job = await findJob(stores, id);
  if (job.site !== relay.site) throw new NotFoundError(`Could not find job ${id}`);
  if (job.state !== "leased" || job.lease?.id !== leaseId || Date.parse(job.lease.until) <= now.getTime()) {
    throw new ConflictError(`Job ${id} is no longer leased by ${leaseId}`);
  }
  return (await stores.relayJobs.update(id, (stored) => markActing(stored, leaseId, now))) ?? job;
}

/**
 * Whether a relay's result still changes the job: it is not finished, or the service failed it (its
 * leases ran out) before any relay's answer came, which is then kept beside that failure.
 */
const takesResult = (job: RelayJob): boolean => !isFinished(job) || (job.result?.relay === "service" && !job.lateResult);

/**
 * Records a relay's result: the first one wins, and the same result again changes nothing (it
 * answers the job as finished). A result from a relay of another site is refused as if the job
 * did not exist; one for a lease this job never handed out is refused (409). A result under a
 * lease that ran out, even one given again since, is the BMC's real answer and is taken when it
 * comes first (issue 50: it was dropped, and the job failed saying no relay had reported); one
 * that comes after the service failed the job is kept beside the failure (`lateResult`).
 */
export async function recordResult(
  stores: StoresOf<"relayJobs">,
  relay: RelayCredential,
  id: string,
  result: { leaseId: string; ok: boolean; output: string; error?: string },
  now: Date,
): Promise<{ job: RelayJob; first: boolean }> {
  const job = await findJob(stores, id);
  if (job.site !== relay.site) throw new NotFoundError(`Could not find job ${id}`);
  if (!isLeaseOf(job, result.leaseId)) throw new ConflictError(`Job ${id} never gave lease ${result.leaseId}`);
  const reported = { ok: result.ok, output: result.output, ...(result.error && { error: result.error }) };
  let first = false;
  const finish = (stored: RelayJob): RelayJob => {
    if (!isLeaseOf(stored, result.leaseId) || !takesResult(stored)) return stored;
    if (!isFinished(stored)) {
      first = true;
      return finishJob(stored, reported, relay.id, now);
    }
    return { ...stored, lateResult: { ...reported, relay: relay.id, at: now.toISOString() }, updatedAt: now.toISOString() };
  };
  // The same result again (a relay that did not hear the answer) writes nothing.
  if (!takesResult(job)) return { job, first: false };
  const after = (await stores.relayJobs.update(id, finish)) ?? job;
  return { job: after, first };
}
