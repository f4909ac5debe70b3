/** What a secret looks like in every response. */
export const REDACTED = "REDACTED";

/**
 * `password`, `community`, and any key containing "password" (rootPassword, cyclePassword, ...),
 * "privateKey" (SSH), "secret" or "sharedKey" (RackHD's OBM encryption key).
 */
export const isSecretKey = (key: string): boolean => /password|privatekey|secret|sharedkey/i.test(key) || key === "community";

/** A deep copy with every secret value replaced by "REDACTED" (null and absent values stay as they are). */
export function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redact) as T;
  if (value === null || typeof value !== "object") return value;
  // fromEntries defines own properties: a "__proto__" key stays a key and sets no prototype.
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      isSecretKey(key) && inner !== null && inner !== undefined && typeof inner !== "object" ? REDACTED : redact(inner),
    ]),
  ) as T;
}

/**
 * A client that echoes a whole record back sends "REDACTED" where a secret was: keep the stored
 * secret there instead of storing the word. Objects are matched key by key.
 */
export function keepRedactedSecrets(incoming: unknown, stored: unknown): unknown {
  if (incoming === null || typeof incoming !== "object" || Array.isArray(incoming)) return incoming;
  if (stored === null || typeof stored !== "object" || Array.isArray(stored)) return incoming;
  const before = stored as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(incoming)) {
    if (value === REDACTED && isSecretKey(key) && Object.hasOwn(before, key)) out[key] = before[key];
    else out[key] = keepRedactedSecrets(value, before[key]);
  }
  return out;
}
