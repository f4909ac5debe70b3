import { randomUUID } from "node:crypto";
import { isDomainError, PayloadTooLargeError } from "../../errors";
import type { ProvisioningStores } from "../ports";
import { digestOf } from "./digest";
import type { FileContent, FileRecord } from "./fileRecord";

/**
 * The file store (RackHD 1.1 §8): bytes by basename, each file with a uuid that names it too.
 * A PUT of a name replaces its bytes and keeps its uuid. Large files go through presigned URLs
 * where the byte store has them: the client PUTs to the URL it is sent to, and the first read
 * after the upload finishes digests the bytes and makes them the file's (see `settle`).
 */
export type FileStores = Pick<ProvisioningStores, "files" | "fileIds" | "fileBlobs">;

/** A file with bytes: what every read answers. */
export type StoredFile = FileRecord & { content: FileContent };

/** How long a presigned upload or download URL holds. */
export const URL_SECONDS = 900;
/** S3's limit for one PUT. */
export const UPLOAD_MAX_BYTES = 5 * 1024 ** 3;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const newBlobKey = (): string => `files/${randomUUID()}`;

/** Removes blobs no record names any more; one that cannot be removed now is left, not an error. */
async function dropBlobs(stores: FileStores, keys: (string | undefined)[]): Promise<void> {
  await Promise.all(keys.filter((key): key is string => key !== undefined).map((key) => stores.fileBlobs.delete(key).catch(() => {})));
}

/**
 * Applies `change` to the record of `basename`, creating it (with a new uuid) when there is none.
 * Answers the record before and after; a create that loses to another writer's applies `change`
 * to the record that won, and its uuid goes.
 */
async function upsert(
  stores: FileStores,
  basename: string,
  now: Date,
  change: (current: FileRecord) => FileRecord,
): Promise<{ before?: FileRecord; after: FileRecord }> {
  let before: FileRecord | undefined;
  const tracked = (current: FileRecord): FileRecord => {
    before = current;
    return { ...change(current), updatedAt: now.toISOString() };
  };
  const updated = await stores.files.update(basename, tracked);
  if (updated) return { before, after: updated };
  const uuid = randomUUID();
  const createdAt = now.toISOString();
  await stores.fileIds.create({ id: uuid, basename, createdAt });
  const created = change({ id: basename, uuid, createdAt, updatedAt: createdAt });
  try {
    return { after: await stores.files.create(created) };
  } catch (error) {
    await stores.fileIds.delete(uuid);
    if (!(isDomainError(error) && error.kind === "conflict")) throw error;
    const again = await stores.files.update(basename, tracked);
    if (!again) throw error;
    return { before, after: again };
  }
}

/**
 * Stores `bytes` as the file `basename`; answers the file (its uuid kept if it existed). Bytes
 * past what the store takes inline are refused, saying how to send them instead.
 */
export async function putFile(stores: FileStores, basename: string, bytes: Buffer, now: Date): Promise<StoredFile> {
  const limit = stores.fileBlobs.inlineMaxBytes;
  if (bytes.byteLength > limit) {
    throw new PayloadTooLargeError(
      `A file in the body holds at most ${limit} bytes: for a larger one, PUT with ?size=<bytes> and no body, then PUT the bytes where the answer's Location says`,
    );
  }
  const content = { blobKey: newBlobKey(), ...digestOf(bytes) };
  await stores.fileBlobs.put(content.blobKey, bytes);
  const { before, after } = await upsert(stores, basename, now, ({ staleBlobs: _dropped, ...current }) => ({ ...current, content }));
  await dropBlobs(stores, [before?.content?.blobKey, ...(before?.staleBlobs ?? [])]);
  return after as StoredFile;
}

export interface UploadUrl {
  uuid: string;
  location: string;
  expiresInSeconds: number;
}

/**
 * Where the client PUTs a file of `size` bytes itself; undefined when the byte store takes every
 * file inline (memory). The file keeps its current bytes until the upload is seen complete.
 */
export async function startUpload(stores: FileStores, basename: string, size: number, now: Date): Promise<UploadUrl | undefined> {
  if (size > UPLOAD_MAX_BYTES) throw new PayloadTooLargeError(`A file holds at most ${UPLOAD_MAX_BYTES} bytes`);
  const blobKey = newBlobKey();
  const location = await stores.fileBlobs.uploadUrl(blobKey, size, URL_SECONDS);
  if (!location) return undefined;
  const expiresAt = new Date(now.getTime() + URL_SECONDS * 1000).toISOString();
  const { before, after } = await upsert(stores, basename, now, ({ staleBlobs: _dropped, ...current }) => ({
    ...current,
    pending: { blobKey, size, expiresAt },
  }));
  await dropBlobs(stores, [before?.pending?.blobKey, ...(before?.staleBlobs ?? [])]);
  return { uuid: after.uuid, location, expiresInSeconds: URL_SECONDS };
}

/** Forgets a file: its record, its uuid and its bytes. */
async function removeFile(stores: FileStores, record: FileRecord): Promise<void> {
  await forgetRecord(stores, record);
  await dropBlobs(stores, [record.content?.blobKey, record.pending?.blobKey, ...(record.staleBlobs ?? [])]);
}

const forgetRecord = async (stores: FileStores, record: FileRecord): Promise<void> => {
  await stores.files.delete(record.id);
  await stores.fileIds.delete(record.uuid);
};

/**
 * Makes a completed presigned upload the file's bytes (digesting them once), or forgets one whose
 * URL has expired with nothing uploaded. Answers the record as it is now; undefined when it went.
 * A read does this, and reads delete no bytes (a booting machine's routes may not: least
 * privilege), so the bytes it replaces are left to the file's next write or deletion (`staleBlobs`).
 */
async function settle(stores: FileStores, record: FileRecord, now: Date): Promise<FileRecord | undefined> {
  const { pending } = record;
  if (!pending) return record;
  const digest = await stores.fileBlobs.digest(pending.blobKey);
  if (!digest && Date.parse(pending.expiresAt) > now.getTime()) return record;
  const { after } = await upsert(stores, record.id, now, (current) => {
    if (current.pending?.blobKey !== pending.blobKey) return current;
    const { pending: _done, ...rest } = current;
    if (!digest) return rest;
    const replaced = current.content?.blobKey;
    return {
      ...rest,
      content: { blobKey: pending.blobKey, ...digest },
      ...(replaced && { staleBlobs: [...(current.staleBlobs ?? []), replaced] }),
    };
  });
  if (after.content || after.pending) return after;
  // Nothing was uploaded and there were no bytes before: only the record goes (there are no bytes to drop).
  await forgetRecord(stores, after);
  return undefined;
}

/** The record `identifier` names: a uuid, or else a basename (`byName` only: a basename). */
async function recordOf(stores: FileStores, identifier: string, byName: boolean): Promise<FileRecord | undefined> {
  if (!byName && UUID.test(identifier)) {
    const id = await stores.fileIds.get(identifier.toLowerCase());
    const record = id && (await stores.files.get(id.basename));
    if (record && record.uuid === id?.id) return record;
  }
  return stores.files.get(identifier);
}

/** The file a uuid or basename names, with its bytes; undefined when there is none (yet). */
export async function findFile(stores: FileStores, identifier: string, now: Date, byName = false): Promise<StoredFile | undefined> {
  const record = await recordOf(stores, identifier, byName);
  const settled = record && (await settle(stores, record, now));
  return settled?.content ? (settled as StoredFile) : undefined;
}

export type FileDownload = { file: StoredFile; bytes: Buffer } | { file: StoredFile; location: string };

/** A file's bytes, or where to get them when they are too large to answer inline. */
export async function downloadFile(stores: FileStores, identifier: string, now: Date, byName = false): Promise<FileDownload | undefined> {
  const file = await findFile(stores, identifier, now, byName);
  if (!file) return undefined;
  if (file.content.size > stores.fileBlobs.inlineMaxBytes) {
    const location = await stores.fileBlobs.downloadUrl(file.content.blobKey, file.id, URL_SECONDS);
    if (location) return { file, location };
  }
  const bytes = await stores.fileBlobs.get(file.content.blobKey);
  return bytes && { file, bytes };
}

/** Every file with bytes, oldest first. */
export async function listFiles(stores: FileStores, now: Date): Promise<StoredFile[]> {
  const settled = await Promise.all((await stores.files.list()).map((record) => settle(stores, record, now)));
  return settled.filter((record): record is StoredFile => record?.content !== undefined);
}

/** Deletes the file a uuid or basename names (one still uploading too); false when there is none. */
export async function deleteFile(stores: FileStores, identifier: string): Promise<boolean> {
  const record = await recordOf(stores, identifier, false);
  if (!record) return false;
  await removeFile(stores, record);
  return true;
}
