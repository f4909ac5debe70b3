import { createHash, randomBytes, randomUUID } from "node:crypto";

export const OBJECT_ID = /^[0-9a-f]{24}$/;

/** A fresh 24-hex id in MongoDB ObjectId form (seconds, then randomness), as RackHD's were. */
export function newObjectId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000).toString(16).padStart(8, "0");
  return seconds + randomBytes(8).toString("hex");
}

/**
 * The id of the node whose first MAC is `mac`: derived, not random, so every container (and every
 * concurrent discovery of the same machine) arrives at the same id.
 */
export const nodeIdForMac = (mac: string): string => createHash("sha256").update(`node:${mac}`).digest("hex").slice(0, 24);

export const newUuid = (): string => randomUUID();
