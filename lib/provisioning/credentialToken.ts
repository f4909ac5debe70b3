import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The credentials the service hands to machines and relays: `<record id>.<secret>`, URL-safe
 * (no `;`, `%`, `&` or `/`, so it sits in a kernel line and a URL path as it is), shown once; only
 * the secret's SHA-256 is kept. The id names the record, so checking one is one read.
 */
export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A new secret for the record `id`, and the token that carries it. */
export function newToken(id: string): { token: string; secretSha256: string } {
  const secret = randomBytes(32).toString("base64url");
  return { token: `${id}.${secret}`, secretSha256: sha256(secret) };
}

/**
 * The token for the record `id` derived from `key` and `purpose` (HMAC-SHA256): the same every
 * time it is asked for, so a credential can be rendered again without keeping it, and a new key
 * (a new workflow's token) gives a new one. Only its hash is kept, as for newToken.
 */
export function derivedToken(id: string, key: string, purpose: string): { token: string; secretSha256: string } {
  const secret = createHmac("sha256", key).update(purpose).digest("base64url");
  return { token: `${id}.${secret}`, secretSha256: sha256(secret) };
}

/** The record id a token names, and its secret; undefined for anything else. */
export function parseToken(token: string): { id: string; secret: string } | undefined {
  const match = /^([0-9a-f]{24})\.([\w-]{43})$/.exec(token);
  return match ? { id: match[1], secret: match[2] } : undefined;
}

/** Whether `secret` is the one whose hash was kept, in constant time. */
export function secretMatches(secret: string, secretSha256: string): boolean {
  const given = Buffer.from(sha256(secret), "hex");
  const kept = Buffer.from(secretSha256, "hex");
  return given.length === kept.length && timingSafeEqual(given, kept);
}

/**
 * The text with every credential in it (a machine's in a seed or report URL, a relay's) cut to
 * the record id it names: what a log line, an event or an error may say of one (issue 35 §10).
 */
export const redactTokens = (text: string): string => text.replace(/\b([0-9a-f]{24})\.[\w-]{43}(?![\w-])/g, "$1.REDACTED");
