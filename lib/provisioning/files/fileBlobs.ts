/** Size and digests of a file's bytes (RackHD's metadata carries md5 and sha256). */
export interface FileDigest {
  size: number;
  md5: string;
  sha256: string;
}

/**
 * The port for a file's bytes: S3 in DynamoDB mode, the container's memory otherwise. Records
 * (names, uuids, digests) are kept in the provisioning stores; this holds only bytes, by key.
 */
export interface FileBlobs {
  /**
   * Largest file a request or an answer carries itself. Larger ones go through presigned URLs
   * where the store has them (a Lambda payload holds 6 MB, base64 included).
   */
  readonly inlineMaxBytes: number;
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  /** The size and digests of a stored blob (one read through it); undefined when there is none. */
  digest(key: string): Promise<FileDigest | undefined>;
  /** Removes the blob; none is no error. */
  delete(key: string): Promise<void>;
  /** A URL the client PUTs `size` bytes to; undefined when this store has none (the bytes come inline). */
  uploadUrl(key: string, size: number, expiresInSeconds: number): Promise<string | undefined>;
  /** A URL the client GETs the bytes from; undefined when this store has none. */
  downloadUrl(key: string, filename: string, expiresInSeconds: number): Promise<string | undefined>;
}
