import { createHash } from "node:crypto";

/**
 * Failed sign-ins, limited (issue 35 §9, reworked by issue 50 §7) so that guessing is slow and no
 * one can lock a user out. Within ATTEMPT_WINDOW_SECONDS, counted per (user name, source), per
 * source and per user name:
 * - ATTEMPT_LIMIT wrong credentials for one user name from one source hold that pair;
 * - SOURCE_LIMIT wrong credentials from one source, whatever the user names, hold that source;
 * - a user name with ATTEMPT_LIMIT wrong credentials from anywhere is slowed, not locked: every
 *   source that has failed for it is held, one that has not (its owner) still signs in; a guesser
 *   spread over many addresses gets one guess per new address a window.
 * A held attempt is answered 429 with Retry-After until the window ends, whatever the password (a
 * guesser who finds it late is still held). Counted in the store the deployment shares (DynamoDB:
 * every container sees the same counts) or, with the memory store, in this process.
 */
export const ATTEMPT_LIMIT = 10;
export const SOURCE_LIMIT = 30;
export const ATTEMPT_WINDOW_SECONDS = 300;

/** Where the failures are counted: per key, per window. */
export interface AttemptCounter {
  /** The failures counted for each key in the window that starts at `window` (epoch seconds). */
  failures(keys: readonly string[], window: number): Promise<number[]>;
  /** Counts one failure for each key in that window. */
  fail(keys: readonly string[], window: number): Promise<void>;
}

/**
 * The counted keys of an attempt, in this order: its (user name, source) pair, its source, its user
 * name (hashed: any text may be sent as one).
 */
export function attemptKeys(user: string, source: string | undefined): string[] {
  const userKey = createHash("sha256").update(user).digest("base64url").slice(0, 22);
  const sourceKey = source ?? "unknown";
  return [`pair#${userKey}#${sourceKey}`, `source#${sourceKey}`, `user#${userKey}`];
}

/** Whether an attempt with these counts (attemptKeys' order) is held. */
export function isHeld([pair = 0, source = 0, user = 0]: readonly number[]): boolean {
  return pair >= ATTEMPT_LIMIT || source >= SOURCE_LIMIT || (user >= ATTEMPT_LIMIT && pair > 0);
}

/** The window an instant falls in, and the seconds left in it. */
export function windowOf(now: Date): { window: number; left: number } {
  const at = Math.floor(now.getTime() / 1000);
  const window = at - (at % ATTEMPT_WINDOW_SECONDS);
  return { window, left: Math.max(1, window + ATTEMPT_WINDOW_SECONDS - at) };
}

/** This process's counts (the memory store, or a deployment that has no shared one), bounded. */
export class MemoryAttemptCounter implements AttemptCounter {
  private readonly counts = new Map<string, number>();
  constructor(private readonly capacity = 10_000) {}

  async failures(keys: readonly string[], window: number): Promise<number[]> {
    return keys.map((key) => this.counts.get(`${key}#${window}`) ?? 0);
  }

  async fail(keys: readonly string[], window: number): Promise<void> {
    for (const key of keys) {
      const id = `${key}#${window}`;
      // Full: the oldest counts go first (a Map keeps insertion order), never the one being counted.
      if (!this.counts.has(id) && this.counts.size >= this.capacity) this.counts.delete(this.counts.keys().next().value as string);
      this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    }
  }
}

let counterOf: () => AttemptCounter = (() => {
  const local = new MemoryAttemptCounter();
  return () => local;
})();

/** The composition root names the counter of the deployment's store (lib/store/compositionRoot.ts). */
export function useAttemptCounter(factory: () => AttemptCounter): void {
  counterOf = factory;
}

export const attemptCounter = (): AttemptCounter => counterOf();
