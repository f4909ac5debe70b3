import type { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { Digester } from "../../provisioning/files/digest";
import type { FileBlobs, FileDigest } from "../../provisioning/files/fileBlobs";

/** A Lambda payload holds 6 MB and a binary body travels base64-encoded (4/3): 4 MiB fit either way. */
export const S3_INLINE_MAX_BYTES = 4 * 1024 * 1024;

const missing = (error: unknown): boolean => {
  const name = (error as { name?: string }).name;
  return name === "NoSuchKey" || name === "NotFound";
};

/** Files' bytes as objects of the file store's bucket, by key; large ones through presigned URLs. */
export class S3FileBlobs implements FileBlobs {
  readonly inlineMaxBytes = S3_INLINE_MAX_BYTES;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: "application/octet-stream" }));
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  /** Streams the object through the digests: a file of any size, in constant memory. */
  async digest(key: string): Promise<FileDigest | undefined> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const digester = new Digester();
      for await (const chunk of (object.Body as Readable | undefined) ?? []) digester.update(chunk as Uint8Array);
      return digester.digest();
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * A presigned PUT of exactly `size` bytes (issue 35 §11): the Content-Length is one of the signed
   * headers, so S3 refuses an upload of any other size (a part announced as 16 bytes cannot be 2 MB).
   */
  uploadUrl(key: string, size: number, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentLength: size }), {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(["content-length"]),
    });
  }

  downloadUrl(key: string, filename: string, expiresInSeconds: number): Promise<string> {
    const disposition = `attachment; filename="${filename.replace(/[^\x20-\x7e]|["\\]/g, "_")}"`;
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentDisposition: disposition }), {
      expiresIn: expiresInSeconds,
    });
  }
}
