import { createHash, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";

/**
 * Password hashes for AUTH_USERS: `scrypt$<N>$<r>$<p>$<salt base64url>$<key base64url>`.
 * scrypt is in Node's standard library, memory-hard, and needs no native add-on.
 */
const PREFIX = "scrypt";
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

const DEFAULT_COST: ScryptCost = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

export interface ScryptHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

export function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST, salt = randomBytes(16)): string {
  const key = scryptSync(password, salt, KEY_LENGTH, { ...cost, maxmem: 128 * cost.N * cost.r * 2 });
  return [PREFIX, cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export const looksLikeHash = (value: string): boolean => value.startsWith(`${PREFIX}$`);

/** Parses a stored hash; undefined when it is not a well-formed scrypt hash. */
export function parseHash(value: string): ScryptHash | undefined {
  const parts = value.split("$");
  if (parts.length !== 6 || parts[0] !== PREFIX) return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], "base64url");
  const key = Buffer.from(parts[5], "base64url");
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || !Number.isInteger(r) || r < 1 || !Number.isInteger(p) || p < 1) return undefined;
  if (N > 1 << 20 || r > 32 || p > 16 || salt.length < 8 || key.length < 16) return undefined;
  return { N, r, p, salt, key };
}

export function verifyHash(password: string, hash: ScryptHash): boolean {
  const candidate = scryptSync(password, hash.salt, hash.key.length, {
    N: hash.N,
    r: hash.r,
    p: hash.p,
    maxmem: 128 * hash.N * hash.r * 2,
  });
  return timingSafeEqual(candidate, hash.key);
}

/** Constant-time comparison of two strings of any length (compares fixed-size digests). */
export function sameSecret(a: string, b: string): boolean {
  const da = createHash("sha256").update(a, "utf8").digest();
  const db = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(da, db);
}
