/**
 * Idempotency keys (the `Idempotency-Key` request header on creates and updates): the port
 * through which a request claims its key, and what a claim can find. The HTTP layer decides what
 * to answer (lib/http/idempotentRequest.ts); the stores keep the keys (lib/store/*\/idempotencyStore.ts).
 *
 * A key goes `pending` (claimed by one request, its owner) → `written` (the request's change was
 * stored, in the same DynamoDB transaction as the change: see guard.ts) → `done` (its answer is
 * kept). A pending claim whose owner stopped (its function timed out, its store failed) may be
 * taken over once its lock runs out; the old owner's change, should it still reach the store, then
 * fails, because the guard checks the owner. So a retried request is never carried out twice.
 */

/** An answer kept for replay. */
export interface KeptAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  /** The key is this request's: carry it out. */
  | { kind: "proceed"; owner: string }
  /** The same request was answered before: answer the same. */
  | { kind: "replay"; answer: KeptAnswer }
  /** The key was used with another request. */
  | { kind: "mismatch" }
  /** Another request with the key is being carried out. */
  | { kind: "busy"; retryAfterSeconds: number }
  /** The request was carried out but its answer could not be kept (the store failed in between). */
  | { kind: "lost" };

export interface IdempotencyStore {
  /** Claims `key` for a request whose body hashes to `fingerprint`. */
  claim(key: string, fingerprint: string, now: Date): Promise<Claim>;
  /** The owner's request succeeded: keep its answer until the key expires. */
  complete(key: string, owner: string, answer: KeptAnswer, now: Date): Promise<void>;
  /** The owner's request changed nothing: the key is free again. */
  release(key: string, owner: string): Promise<void>;
}

/** How long a key is remembered (Stripe's choice too). */
export const KEY_TTL_SECONDS = 24 * 60 * 60;

/**
 * How long a pending claim holds before another request may take it over: the function's
 * time-out and a second, by when Lambda has stopped its owner. A write of the owner's that
 * reaches the store later still fails (the guard), so the lock need not outlast the store's delays.
 */
export const lockSeconds = (functionTimeoutSeconds: number): number => functionTimeoutSeconds + 1;
