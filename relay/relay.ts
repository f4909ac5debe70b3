import { type LeasedJob, PUSH, RELAY_ROUTES } from "../lib/wire/relay";
import type { Driver, DriverResult } from "./drivers/driver";
import { PushLink, type PushLinkOptions } from "./push";
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
  /**
   * Hold the push connection the service names in its lease answers (issue 56; on unless false):
   * jobs are then heard of at once and the relay polls only every `connectedPollMs` (4 minutes).
   */
  push?: boolean;
  connectedPollMs?: number;
  /** The push connection's timings (the tests shorten them). */
  pushTimings?: Pick<PushLinkOptions, "keepAliveMs" | "renewAfterMs" | "pongWithinMs" | "retryMs">;
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
  const wake = new Waker();
  let link: PushLink | undefined;
  let lastWork = 0;
  let failures = 0;
  /** Leases still to try soon after a push found nothing (the service's index may not show the job yet). */
  let pushedRetries = 0;
  /** The service's word on when a job another relay holds comes back (nothing is pushed then). */
  let leaseEndsInMs: number | undefined;
  wake.onWake = () => {
    pushedRetries = PUSHED_RETRIES;
  };
  log(`relay ${RELAY_VERSION}: polling ${options.api} for its site's jobs`);
  while (!options.signal?.aborted) {
    const free = (options.concurrency ?? 4) - running.size;
    let leased = 0;
    try {
      options.onPoll?.();
      const answer = free > 0 ? await lease(options, free) : { jobs: [], pushUrl: link?.url, leaseEndsInMs: undefined };
      const { jobs, pushUrl } = answer;
      leaseEndsInMs = answer.leaseEndsInMs;
      failures = 0;
      leased = jobs.length;
      for (const job of jobs) {
        if (running.has(job.id)) continue;
        lastWork = Date.now();
        running.add(job.id);
        void work(options, job, log).finally(() => {
          running.delete(job.id);
          // A slot is free: with push on, nothing else would prompt the next lease.
          wake.wake(false);
        });
      }
      if (options.push !== false && pushUrl !== link?.url) {
        link?.stop();
        link = pushUrl
          ? new PushLink({
              url: pushUrl,
              token: options.token,
              version: RELAY_VERSION,
              onJobs: () => wake.wake(),
              log,
              ...options.pushTimings,
            }).start()
          : undefined;
      }
    } catch (error) {
      failures += 1;
      log(`lease failed (${failures} in a row): ${(error as Error).message}`);
    }
    const busy = running.size > 0 || Date.now() - lastWork < (options.busyForMs ?? BUSY_FOR_MS);
    if (leased > 0 || failures > 0) pushedRetries = 0;
    else if (pushedRetries > 0) pushedRetries -= 1;
    // After failures, back off up to a minute; the service may be down or the credential revoked.
    // With the push connection open, the service says when there is work: a poll now and then only
    // (a push lost on its way); a lease that filled every slot is followed by another at once.
    const wait =
      failures > 0
        ? Math.min(60_000, idleMs * 2 ** Math.min(failures - 1, 4))
        : leased > 0 && leased >= free
          ? 0
          : pushedRetries > 0
            ? PUSHED_RETRY_MS
            : link?.connected
              ? Math.min(
                  options.connectedPollMs ?? PUSH.keepAliveMs,
                  leaseEndsInMs === undefined ? Number.POSITIVE_INFINITY : leaseEndsInMs + 50,
                )
              : busy
                ? busyMs
                : idleMs;
    await wake.wait(wait, options.signal);
  }
  link?.stop();
  log("relay: stopped");
}

/** After a push, a lease that found nothing is tried again this many times this far apart (an index a moment behind). */
const PUSHED_RETRIES = 3;
const PUSHED_RETRY_MS = 150;

/** The loop's wait, ended early by a push or a freed slot; a wake while not waiting ends the next wait at once. */
class Waker {
  private pending = false;
  private resolve: (() => void) | undefined;
  onWake: () => void = () => undefined;

  /** `pushed`: the service said there is work (a lease that then finds none is tried again soon). */
  wake(pushed = true): void {
    if (pushed) this.onWake();
    if (this.resolve) this.resolve();
    else this.pending = true;
  }

  wait(ms: number, signal?: AbortSignal): Promise<void> {
    // Stopped while it leased: an abort already past fires no event.
    if (this.pending || ms <= 0 || signal?.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.resolve = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.resolve = done;
      signal?.addEventListener("abort", done, { once: true });
    });
  }
}

async function lease(
  options: RelayOptions,
  max: number,
): Promise<{ jobs: LeasedJob[]; pushUrl: string | undefined; leaseEndsInMs: number | undefined }> {
  const answer = await fetch(`${options.api.replace(/\/$/, "")}${RELAY_ROUTES.lease}`, {
    method: "POST",
    headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
    body: JSON.stringify({ max: Math.min(max, 8), version: RELAY_VERSION }),
    signal: AbortSignal.timeout(20_000),
  });
  if (answer.status !== 200) throw new Error(`the service answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
  const ends = Number(answer.headers.get(PUSH.leaseEndsHeader) ?? Number.NaN);
  return {
    jobs: (await answer.json()) as LeasedJob[],
    pushUrl: answer.headers.get(PUSH.urlHeader) ?? undefined,
    leaseEndsInMs: Number.isFinite(ends) && ends >= 0 ? ends : undefined,
  };
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

/** A wait nothing wakes but its end or a stop. */
const sleep = (ms: number, signal?: AbortSignal): Promise<void> => new Waker().wait(ms, signal);
