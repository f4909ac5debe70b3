import { PayloadTooLargeError } from "../errors";

/**
 * One size limit for a stored record, whichever the store: a node or a workflow must fit in one
 * DynamoDB item (400 KB, attribute names and the version and index attributes included), so the
 * memory store refuses what the DynamoDB store could not keep. 350 KB of JSON leaves that room.
 */
export const RECORD_MAX_BYTES = 350 * 1024;

/** 413 when `record` would be larger than RECORD_MAX_BYTES once stored. */
export function assertRecordFits(record: object, what: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(record));
  if (bytes > RECORD_MAX_BYTES) {
    throw new PayloadTooLargeError(
      `The ${what} would take ${bytes} bytes once stored; a ${what} may take at most ${RECORD_MAX_BYTES} bytes`,
    );
  }
}

/**
 * The longest id or identifier a record can be found by: DynamoDB's sort-key limit (1 KB). The
 * routes' schemas bound ids well below it; the domain answers a longer one as unknown itself, so
 * no caller reaches a store with a key the store cannot hold.
 */
export const KEY_MAX_BYTES = 1024;

export const fitsKey = (key: string): boolean => Buffer.byteLength(key) <= KEY_MAX_BYTES;

/**
 * The most user-data a node keeps (cloud-init reads far less; an item must fit DynamoDB's 400 KB):
 * the seed's and an install's alike (cloudInit/, workflows/).
 */
export const USER_DATA_MAX_BYTES = 64 * 1024;
