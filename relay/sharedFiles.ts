/**
 * The files every machine fetches alike (the loaders, `/common/…`: the kernel and initrd), as the
 * relay keeps them: one fetch from the service at a time, kept a minute. A firmware or GRUB that
 * hears nothing within a few hundred milliseconds sends its request again, about 40 times: without
 * this each copy fetched the 8 MB kernel anew, and on a busy host none arrived before GRUB gave up;
 * a rack's worth of virtual media images built at once fetched the same 23 MB for each. A file
 * published again reaches the machines within the minute. Used by the TFTP server and the virtual
 * media images (each their own).
 */
const SHARED_TTL_MS = 60_000;
/** The shared files kept, in bytes: a kernel and an initrd or two (the relay stays well under 150 MB with them). */
export const SHARED_MAX_BYTES = 64 << 20;

/** A file's bytes by its path: kept, or fetched with `fetchIt` (a failed fetch is not kept: the next asks again). */
export type SharedFiles = (path: string, fetchIt: () => Promise<Buffer>) => Promise<Buffer>;

export function sharedFiles(maxBytes = SHARED_MAX_BYTES): SharedFiles {
  const files = new Map<string, { at: number; data: Promise<Buffer>; bytes: number }>();
  /** Drops what is past its minute, then the oldest, until the kept files fit `maxBytes`. */
  const trim = () => {
    let total = 0;
    for (const [path, entry] of files) {
      if (Date.now() - entry.at >= SHARED_TTL_MS) files.delete(path);
      else total += entry.bytes;
    }
    for (const [path, entry] of files) {
      if (total <= maxBytes) break;
      files.delete(path);
      total -= entry.bytes;
    }
  };
  return (path, fetchIt) => {
    const kept = files.get(path);
    if (kept && Date.now() - kept.at < SHARED_TTL_MS) return kept.data;
    const data = fetchIt();
    const entry = { at: Date.now(), data, bytes: 0 };
    files.delete(path);
    files.set(path, entry);
    data.then(
      (bytes) => {
        entry.bytes = bytes.length;
        trim();
      },
      () => files.get(path) === entry && files.delete(path),
    );
    return data;
  };
}
