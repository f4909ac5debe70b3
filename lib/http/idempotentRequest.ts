import { createHash } from "node:crypto";
import { ConflictError, InProgressError, isDomainError, UnprocessableError, ValidationError } from "../errors";
import { runGuarded } from "../idempotency/guard";
import type { IdempotencyStore } from "../idempotency/idempotencyStore";
import { logLine } from "../logger";
import type { HttpEvent, HttpResult } from "./event";
import { principalOf } from "./principal";

/** Visible ASCII, 1 to 255 characters: a UUID, a ULID or any client's own scheme fits. */
const KEY = /^[\x21-\x7e]{1,255}$/;

const sha256 = (text: string): string => createHash("sha256").update(text).digest("base64url");

/**
 * Carries out `run` at most once per `Idempotency-Key` (when the request has one): the same key
 * with the same body answers the first answer again (with `Idempotent-Replayed: true`), with
 * another body 422, while the first is still running 409 with Retry-After. A key is scoped to the
 * method, the path and the caller (the authenticated user, never the credentials: principal.ts). Only a success is kept: an answer that changed nothing
 * (a 4xx) frees the key; a failure that may have changed something (a 5xx, a store outage) holds
 * it until its lock runs out, and the store's guard keeps that request from landing twice.
 */
export async function idempotentRequest(
  event: HttpEvent,
  store: IdempotencyStore,
  now: () => Date,
  run: () => Promise<HttpResult>,
): Promise<HttpResult> {
  const header = event.headers?.["idempotency-key"];
  if (header === undefined) return run();
  if (!KEY.test(header)) throw new ValidationError("Idempotency-Key must be 1 to 255 visible ASCII characters");
  const { method } = event.requestContext.http;
  const key = sha256(`${method} ${event.rawPath}\n${principalOf(event)}\n${header}`);
  const fingerprint = sha256(`${event.isBase64Encoded ? "b64:" : ""}${event.body ?? ""}`);
  const claim = await store.claim(key, fingerprint, now());
  switch (claim.kind) {
    case "replay":
      return { ...claim.answer, headers: { ...claim.answer.headers, "idempotent-replayed": "true" } };
    case "mismatch":
      throw new UnprocessableError("This Idempotency-Key was used with another request body; use a new key for a new request");
    case "busy":
      throw new InProgressError("A request with this Idempotency-Key is still being carried out; try again later", claim.retryAfterSeconds);
    case "lost":
      throw new ConflictError(
        "The request with this Idempotency-Key was carried out, but its answer could not be kept; look the resource up",
      );
  }
  const guard = { key, owner: claim.owner, spent: false };
  let answer: HttpResult;
  try {
    answer = await runGuarded(guard, run);
  } catch (error) {
    // A refusal (4xx) changed nothing; anything else may have, so the key stays held.
    if (isDomainError(error) && error.kind !== "unavailable") await store.release(key, claim.owner).catch(() => undefined);
    throw error;
  }
  if (answer.statusCode >= 300) {
    await store.release(key, claim.owner).catch(() => undefined);
    return answer;
  }
  const kept = { statusCode: answer.statusCode, headers: { ...(answer.headers as Record<string, string>) }, body: answer.body ?? "" };
  // The change is stored and the client gets its answer even if keeping it fails (a retry then hears "lost").
  await store.complete(key, claim.owner, kept, now()).catch((error: Error) => {
    logLine({ level: "warn", msg: "could not keep the answer of an idempotent request", error: error.message });
  });
  return answer;
}

/** Runs a request under its Idempotency-Key, if it has one. */
export type IdempotentRunner = (event: HttpEvent, run: () => Promise<HttpResult>) => Promise<HttpResult>;

/** The runner an idempotent endpoint is given: keys kept in `store()`, the clock is the wall clock. */
export const idempotentWith =
  (store: () => IdempotencyStore): IdempotentRunner =>
  (event, run) =>
    idempotentRequest(event, store(), () => new Date(), run);
