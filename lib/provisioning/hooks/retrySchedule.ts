/**
 * When a failed delivery is tried again (issue 27: retries with back-off over about a day). The
 * n-th retry waits RETRY_SECONDS[n - 1]; past the last one the delivery is given up, and a hook
 * whose deliveries have all failed for a day is disabled.
 *
 * The default waits: 10 s, 1 min, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h (the last attempt about 24 h
 * after the first). HOOK_RETRY_SECONDS replaces them (the tests use fractions of a second).
 */
export const DEFAULT_RETRY_SECONDS: readonly number[] = [10, 60, 300, 1800, 7200, 18000, 28800, 28800];

/** A hook failing this long (every delivery since) is disabled. */
export const DISABLE_AFTER_MS = 24 * 3600 * 1000;

/** The wait before attempt `attempt + 1` after attempt `attempt` (1-based) failed; undefined = give up. */
export function retryDelaySeconds(schedule: readonly number[], attempt: number): number | undefined {
  return attempt >= 1 && attempt <= schedule.length ? schedule[attempt - 1] : undefined;
}

/** Whether an answer is a success: any 2xx. RackHD's hooks ignored answers; a receiver today answers 2xx when it took the event. */
export const delivered = (status: number): boolean => status >= 200 && status < 300;

/** Whether the hook has failed long enough to be disabled. */
export const shouldDisable = (failingSince: string | undefined, now: Date): boolean =>
  failingSince !== undefined && now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_MS;
