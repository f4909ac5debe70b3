import type { FileBlobs } from "../provisioning/files/fileBlobs";

/** The install logs' prefix in the bucket: its own IAM grants and its own expiry rule (resources.yml). */
export const INSTALL_LOGS_PREFIX = "install-logs/";

/** `blobs` with every key under `prefix`: one bucket, kept apart by key (and by IAM, by prefix). */
export const prefixedBlobs = (blobs: FileBlobs, prefix: string): FileBlobs => ({
  get inlineMaxBytes() {
    return blobs.inlineMaxBytes;
  },
  put: (key, bytes) => blobs.put(prefix + key, bytes),
  get: (key) => blobs.get(prefix + key),
  digest: (key) => blobs.digest(prefix + key),
  delete: (key) => blobs.delete(prefix + key),
  uploadUrl: (key, size, expires) => blobs.uploadUrl(prefix + key, size, expires),
  downloadUrl: (key, filename, expires) => blobs.downloadUrl(prefix + key, filename, expires),
});
