import { type AuditRecord, auditTrail, newAuditId } from "../audit/auditTrail";
import { attemptCounter, attemptKeys, isHeld, windowOf } from "../auth/attemptLimiter";
import { isDomainError, TooManyAttemptsError } from "../errors";
import { logLine } from "../logger";

/** Who asked for a WebSocket connection, as the connection request says. */
export interface ConnectAttempt {
  /** The function's name: the action the audit trail records. */
  action: string;
  /** What the credential claims to be (a relay credential's id, never its secret), to count and record it by. */
  claimed: string;
  sourceIp: string | undefined;
  connectionId: string;
}

/**
 * A `$connect` whose credential is checked as a sign-in is: a caller (its claimed credential, its
 * address) with too many failures in the window is refused at once (429); a refusal (401) is
 * counted, and each refused connect is in the audit trail, as a refused HTTP request is. `work`
 * checks the credential and keeps the connection.
 */
export async function countedConnect(attempt: ConnectAttempt, work: () => Promise<void>, now: Date): Promise<void> {
  const counter = attemptCounter();
  const keys = attemptKeys(attempt.claimed, attempt.sourceIp);
  const { window, left } = windowOf(now);
  if (isHeld(await counter.failures(keys, window))) {
    await record(attempt, 429, now);
    throw new TooManyAttemptsError("Too many failed connects for this credential or from this address: try again later", left);
  }
  try {
    await work();
  } catch (error) {
    if (isDomainError(error) && error.kind === "unauthorized") {
      await counter.fail(keys, window);
      await record(attempt, 401, now);
    }
    throw error;
  }
}

/** The refused connect in the audit trail; a trail that cannot be written changes no answer. */
async function record(attempt: ConnectAttempt, status: number, at: Date): Promise<void> {
  const entry: AuditRecord = {
    id: newAuditId(at),
    at: at.toISOString(),
    actor: attempt.claimed.slice(0, 64),
    verified: false,
    action: attempt.action,
    method: "CONNECT",
    path: "$connect",
    ...(attempt.sourceIp && { sourceIp: attempt.sourceIp }),
    status,
  };
  try {
    await auditTrail().add(entry);
  } catch (error) {
    logLine({ level: "error", msg: "audit record not kept", record: entry, error: (error as Error).message });
  }
}
