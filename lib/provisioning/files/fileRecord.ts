/** The bytes a file name holds now: where they are and what they are. */
export interface FileContent {
  /** The blob holding the bytes (a new one for every write, so a reader never sees half of one). */
  blobKey: string;
  size: number;
  md5: string;
  sha256: string;
}

/** An upload through a presigned URL, not yet seen complete. */
export interface PendingUpload {
  blobKey: string;
  /** The size the client announced. */
  size: number;
  expiresAt: string;
}

/**
 * A file of the file store, kept by its basename (RackHD from `8f734842`: a PUT of the same name
 * replaces the bytes and keeps the uuid).
 */
export interface FileRecord {
  /** The basename. */
  id: string;
  uuid: string;
  /** Absent until the first upload through a presigned URL completes. */
  content?: FileContent;
  pending?: PendingUpload;
  /** Bytes a completed upload replaced, seen by a read (which deletes nothing): the next write or deletion drops them. */
  staleBlobs?: string[];
  createdAt: string;
  updatedAt: string;
}

/** Which basename a uuid names: GET and DELETE take either. */
export interface FileId {
  /** The uuid. */
  id: string;
  basename: string;
  createdAt: string;
}

/** RackHD's metadata of a file (on-core's file model without its internal keys), with its size. */
export interface FileMetadata {
  basename: string;
  filename: string;
  uuid: string;
  md5: string;
  sha256: string;
  size: number;
  version: 0;
}

export function fileMetadata(record: FileRecord & { content: FileContent }): FileMetadata {
  const { md5, sha256, size } = record.content;
  return { basename: record.id, filename: record.id, uuid: record.uuid, md5, sha256, size, version: 0 };
}
