/** What a secret looks like in every response. */
export const REDACTED = "REDACTED";

/**
 * Any key containing "password" (rootPassword, cyclePassword, ...), "community" (SNMP's
 * `community`, a poller's `communityString`), "privateKey" (SSH), "secret" or "sharedKey"
 * (RackHD's OBM encryption key), and cloud-init's "userData" (it often holds passwords and keys).
 */
export const isSecretKey = (key: string): boolean => /password|community|privatekey|secret|sharedkey|userdata/i.test(key);

/** A URL's password (`amqp://user:password@host`, a repository's `http://user:password@mirror/`). */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^/?#@:\s]*:)[^/?#@\s]+@/i;

/** The text with a URL's password replaced by "REDACTED"; any other text as it is. */
const redactUrlPassword = (text: string): string => text.replace(URL_PASSWORD, `$1${REDACTED}@`);

/**
 * A deep copy with every secret value replaced by "REDACTED" (null and absent values stay as they
 * are), and the password of every URL too, whatever its key.
 */
export function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redact) as T;
  if (typeof value === "string") return redactUrlPassword(value) as T;
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
 * A client that echoes a whole record back sends "REDACTED" where a secret was (or in a URL's
 * password): keep the stored secret there instead of storing the word. Objects are matched key by key.
 */
export function keepRedactedSecrets(incoming: unknown, stored: unknown): unknown {
  if (incoming === null || typeof incoming !== "object" || Array.isArray(incoming)) return incoming;
  if (stored === null || typeof stored !== "object" || Array.isArray(stored)) return incoming;
  const before = stored as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(incoming)) {
    const kept = before[key];
    if (value === REDACTED && isSecretKey(key) && Object.hasOwn(before, key)) out[key] = kept;
    // A URL echoed back with its password redacted: the stored URL, password and all.
    else if (typeof value === "string" && typeof kept === "string" && value !== kept && value === redactUrlPassword(kept)) out[key] = kept;
    else out[key] = keepRedactedSecrets(value, kept);
  }
  return out;
}
