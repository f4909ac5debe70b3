import { type LeasedJob, RELAY_ROUTES } from "../lib/wire/relay";
import type { Driver, DriverResult } from "./drivers/driver";
import { RELAY_VERSION } from "./version";

export type { LeasedJob };

export interface RelayOptions {
  /** The service's base URL (any stage prefix included). */
  api: string;
  token: string;
  drivers: Record<string, Driver>;
  /** Poll interval while the site has had work in the last minute (500 ms), and when idle (5 s). */
  busyPollMs?: number;
  idlePollMs?: number;
  /** Jobs run at once. */
  concurrency?: number;
  /** How long after its last job the relay keeps polling fast (a minute). */
  busyForMs?: number;
  /** Called on each lease request (the bench counts them). */
  onPoll?: () => void;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

/** Stays busy (fast polls) this long after the last job. */
const BUSY_FOR_MS = 60_000;

/**
 * The relay: polls the service for its site's jobs, runs each through the driver of its OBM
 * service, and reports the result. It keeps nothing that matters: a job it took and did not report
 * (it was stopped, it crashed) goes to another relay, or to this one restarted, when its lease
 * runs out; a result it could not deliver is retried until the service takes it (the first result
 * wins, so sending one twice is harmless). It opens no port: it only dials out.
 */
export async function runRelay(options: RelayOptions): Promise<void> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`));
  const busyMs = options.busyPollMs ?? 500;
  const idleMs = options.idlePollMs ?? 5_000;
  const running = new Set<string>();
  let lastWork = 0;
  let failures = 0;
  log(`relay ${RELAY_VERSION}: polling ${options.api} for its site's jobs`);
  while (!options.signal?.aborted) {
    const free = (options.concurrency ?? 4) - running.size;
    try {
      options.onPoll?.();
      const jobs = free > 0 ? await lease(options, free) : [];
      failures = 0;
      for (const job of jobs) {
        if (running.has(job.id)) continue;
        lastWork = Date.now();
        running.add(job.id);
        void work(options, job, log).finally(() => running.delete(job.id));
      }
    } catch (error) {
      failures += 1;
      log(`lease failed (${failures} in a row): ${(error as Error).message}`);
    }
    const busy = running.size > 0 || Date.now() - lastWork < (options.busyForMs ?? BUSY_FOR_MS);
    // After failures, back off up to a minute; the service may be down or the credential revoked.
    const wait = failures > 0 ? Math.min(60_000, idleMs * 2 ** Math.min(failures - 1, 4)) : busy ? busyMs : idleMs;
    await sleep(wait, options.signal);
  }
  log("relay: stopped");
}

async function lease(options: RelayOptions, max: number): Promise<LeasedJob[]> {
  const answer = await fetch(`${options.api.replace(/\/$/, "")}${RELAY_ROUTES.lease}`, {
    method: "POST",
    headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
    body: JSON.stringify({ max: Math.min(max, 8), version: RELAY_VERSION }),
    signal: AbortSignal.timeout(20_000),
  });
  if (answer.status !== 200) throw new Error(`the service answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
  return (await answer.json()) as LeasedJob[];
}

/** Actions that must not run twice: the relay says it is about to act first (relays/job.ts, actsOnce). */
const actsOnce = (job: LeasedJob): boolean => job.action.kind === "power" && ["reset", "cycle", "reboot"].includes(job.action.action);

async function work(options: RelayOptions, job: LeasedJob, log: (line: string) => void): Promise<void> {
  const driver = options.drivers[job.obm.service];
  const started = Date.now();
  if (actsOnce(job) && !(await sayActing(options, job, log))) return;
  let result: DriverResult;
  try {
    result = driver
      ? await driver(job.obm.config, job.action, { node: job.node })
      : { ok: false, output: "", error: `This relay has no driver for ${job.obm.service}` };
  } catch (error) {
    result = { ok: false, output: "", error: (error as Error).message };
  }
  // Never the config (it holds the BMC's password): the job, the node, the outcome.
  log(
    `job ${job.id} (${JSON.stringify(job.action)} on node ${job.node}): ${result.ok ? "done" : `failed: ${result.error}`} in ${Date.now() - started} ms`,
  );
  await report(options, job, result, log);
}

/** Tells the service the relay is about to act; false when it no longer holds the job (another relay does). */
async function sayActing(options: RelayOptions, job: LeasedJob, log: (line: string) => void): Promise<boolean> {
  try {
    const answer = await fetch(`${options.api.replace(/\/$/, "")}${RELAY_ROUTES.acting(job.id)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
      body: JSON.stringify({ leaseId: job.lease.id }),
      signal: AbortSignal.timeout(20_000),
    });
    if (answer.status === 200) return true;
    log(`job ${job.id}: not acting (the service answered ${answer.status})`);
  } catch (error) {
    // Not acting without the service knowing: the lease runs out and the job is handed out again.
    log(`job ${job.id}: not acting (${(error as Error).message})`);
  }
  return false;
}

async function report(options: RelayOptions, job: LeasedJob, result: DriverResult, log: (line: string) => void): Promise<void> {
  const body = JSON.stringify({
    leaseId: job.lease.id,
    ok: result.ok,
    output: result.output.slice(0, 65_536),
    ...(result.error && { error: result.error.slice(0, 4_096) }),
  });
  for (let attempt = 1; !options.signal?.aborted; attempt += 1) {
    try {
      const answer = await fetch(`${options.api.replace(/\/$/, "")}${RELAY_ROUTES.result(job.id)}`, {
        method: "POST",
        headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(20_000),
      });
      // 409: the lease ran out and another relay took the job: its result is the one that counts.
      if (answer.status === 200 || answer.status === 409 || answer.status === 404) return;
      log(`job ${job.id}: reporting answered ${answer.status}; retrying`);
    } catch (error) {
      log(`job ${job.id}: reporting failed (${(error as Error).message}); retrying`);
    }
    await sleep(Math.min(30_000, 500 * 2 ** Math.min(attempt, 6)), options.signal);
  }
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
