import { randomUUID } from "node:crypto";
import { type Claim, type IdempotencyStore, KEY_TTL_SECONDS, type KeptAnswer } from "../../idempotency/idempotencyStore";

interface Entry {
  fingerprint: string;
  owner: string;
  answer?: KeptAnswer;
  /** Epoch ms: when a pending claim may be taken over, and when the key is forgotten. */
  lockUntil: number;
  expiresAt: number;
}

/**
 * Idempotency keys in this container's memory, bounded: past `capacity` keys or `maxBytes` of kept
 * answers the oldest keys go, and a key is forgotten KEY_TTL_SECONDS after its claim. A request runs to its end in this process,
 * so there is no late write to fence off (the DynamoDB store's guard).
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly limits: { capacity: number; maxBytes: number },
    private readonly lockMs: number,
  ) {}

  async claim(key: string, fingerprint: string, now: Date): Promise<Claim> {
    const at = now.getTime();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > at) {
      if (entry.fingerprint !== fingerprint) return { kind: "mismatch" };
      if (entry.answer) return { kind: "replay", answer: entry.answer };
      if (entry.lockUntil > at) return { kind: "busy", retryAfterSeconds: Math.ceil((entry.lockUntil - at) / 1000) };
    }
    this.forget(key);
    const owner = randomUUID();
    this.entries.set(key, { fingerprint, owner, lockUntil: at + this.lockMs, expiresAt: at + KEY_TTL_SECONDS * 1000 });
    this.evict();
    return { kind: "proceed", owner };
  }

  async complete(key: string, owner: string, answer: KeptAnswer): Promise<void> {
    const entry = this.entries.get(key);
    if (entry?.owner !== owner) return;
    entry.answer = answer;
    this.bytes += answer.body.length;
    this.evict();
  }

  async release(key: string, owner: string): Promise<void> {
    if (this.entries.get(key)?.owner === owner) this.forget(key);
  }

  private forget(key: string): void {
    this.bytes -= this.entries.get(key)?.answer?.body.length ?? 0;
    this.entries.delete(key);
  }

  /** Oldest first, down to the limits (Map keeps insertion order). */
  private evict(): void {
    while (this.entries.size > this.limits.capacity || this.bytes > this.limits.maxBytes) this.forget(this.entries.keys().next().value!);
  }
}
