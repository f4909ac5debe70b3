import { PUSH } from "../../wire/relay";
import { newToken, parseToken } from "../credentialToken";

/** A site: one place with machines, one or more relays, and the nodes that belong to it. */
export interface Site {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * A relay's credential: what a relay of `site` presents (`Authorization: Bearer <id>.<secret>`).
 * Only the secret's SHA-256 is kept (the secret is 32 random bytes, so a fast hash is enough: there
 * is nothing to guess). Shown once, at creation; revoked by deleting it, rotated by creating a new
 * one and deleting the old once the relay uses the new.
 */
export interface RelayCredential {
  id: string;
  site: string;
  name: string;
  secretSha256: string;
  createdAt: string;
  /** When a relay last presented it, with what it said it was (kept about once a minute). */
  lastSeenAt?: string;
  relayVersion?: string;
  /** When the service found it quiet (not heard from for ONLINE_WITHIN_MS): its `relay.lost` event. */
  lostAt?: string;
  /**
   * While the relay holds a push connection (issue 56): when it connected or last pinged. It then
   * polls only every few minutes, so its pings keep it online (PUSH.onlineForMs); gone when the
   * connection closes.
   */
  pushedAt?: string;
}

/** What is answered about a credential: never its hash. */
export type RelayCredentialView = Omit<RelayCredential, "secretSha256" | "lostAt"> & { online: boolean };

/** A relay heard from within this long is online. */
export const ONLINE_WITHIN_MS = 60_000;

export { secretMatches, sha256 } from "../credentialToken";

/** A new secret and the token a relay presents: `<credential id>.<secret>`, URL-safe. */
export const newRelayToken = (credentialId: string): { token: string; secretSha256: string } => newToken(credentialId);

/** The credential id a token names, and its secret. */
export function parseRelayToken(token: string): { credentialId: string; secret: string } | undefined {
  const parsed = parseToken(token);
  return parsed && { credentialId: parsed.id, secret: parsed.secret };
}

/** Whether the relay was heard from lately: a request within ONLINE_WITHIN_MS, or its push connection's last ping within PUSH.onlineForMs. */
export function heardLately(credential: RelayCredential, now: Date): boolean {
  const since = (at: string | undefined) => (at === undefined ? Number.POSITIVE_INFINITY : now.getTime() - Date.parse(at));
  return since(credential.lastSeenAt) < ONLINE_WITHIN_MS || since(credential.pushedAt) < PUSH.onlineForMs;
}

export function viewCredential(credential: RelayCredential, now: Date): RelayCredentialView {
  const { secretSha256: _hidden, lostAt: _lost, ...shown } = credential;
  return { ...shown, online: heardLately(credential, now) };
}

/** Who forwarded a boot request: a relay's credential and its site. */
export interface RelayIdentity {
  id: string;
  site: string;
}

/** Whether the relay was offline before this sighting: never seen, found quiet since, or silent past the online window. */
export function wasOffline(credential: RelayCredential, now: Date): boolean {
  if (credential.lastSeenAt === undefined) return true;
  if (credential.lostAt !== undefined && credential.lostAt >= credential.lastSeenAt) return true;
  return !heardLately(credential, now);
}
