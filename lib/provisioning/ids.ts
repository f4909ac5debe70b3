import { createHash, randomUUID } from "node:crypto";

export const OBJECT_ID = /^[0-9a-f]{24}$/;

/**
 * A fresh 24-hex id in MongoDB ObjectId form (seconds, then randomness), as RackHD's were. The
 * randomness comes from randomUUID (Node keeps a pool of random bytes for it, where randomBytes
 * calls into OpenSSL each time): the UUID's hex digits less its fixed version and variant ones.
 */
export function newObjectId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, "0");
  const hex = randomUUID().replace(/-/g, "");
  return seconds + hex.slice(0, 12) + hex.slice(13, 16) + hex.slice(17, 18);
}

/**
 * A 24-hex id (ObjectId form) that sorts in creation order: seconds and milliseconds, the
 * record's place in its batch, then randomness. So "insertion order" and "latest" are the id
 * order in every store, across containers to the millisecond (catalogs, SKUs).
 */
export function orderedId(now: Date, place = 0): string {
  const ms = now.getTime();
  const seconds = Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, "0");
  const millis = (ms % 1000).toString(16).padStart(3, "0");
  const order = (place % 256).toString(16).padStart(2, "0");
  return seconds + millis + order + randomUUID().replace(/-/g, "").slice(0, 11);
}

/**
 * The id of the node whose first MAC is `mac`: derived, not random, so every container (and every
 * concurrent discovery of the same machine) arrives at the same id.
 */
export const nodeIdForMac = (mac: string): string => createHash("sha256").update(`node:${mac}`).digest("hex").slice(0, 24);

export const newUuid = (): string => randomUUID();
