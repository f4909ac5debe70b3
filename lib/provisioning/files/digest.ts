import { createHash } from "node:crypto";
import type { FileDigest } from "./fileBlobs";

/** Digests of bytes read in chunks (a stream from S3) or at once. */
export class Digester {
  private readonly md5 = createHash("md5");
  private readonly sha256 = createHash("sha256");
  private size = 0;

  update(chunk: Uint8Array): this {
    this.md5.update(chunk);
    this.sha256.update(chunk);
    this.size += chunk.byteLength;
    return this;
  }

  digest(): FileDigest {
    return { size: this.size, md5: this.md5.digest("hex"), sha256: this.sha256.digest("hex") };
  }
}

export const digestOf = (bytes: Uint8Array): FileDigest => new Digester().update(bytes).digest();
