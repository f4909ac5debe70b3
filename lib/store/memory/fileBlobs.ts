import { digestOf } from "../../provisioning/files/digest";
import type { FileBlobs, FileDigest } from "../../provisioning/files/fileBlobs";
import { Budget, type BudgetLimits } from "./budget";
import { LoopbackUploads } from "./loopbackUploads";

/**
 * Files' bytes in this container's memory, bounded by the store's byte budget. Every file is
 * answered inline; uploads come inline too, except under `serverless offline` (`loopbackUploads`),
 * where a large one goes to a loopback URL in place of a presigned one (see LoopbackUploads).
 */
export class MemoryFileBlobs implements FileBlobs {
  private readonly blobs = new Map<string, Buffer>();
  private readonly budget: Budget;
  readonly inlineMaxBytes: number;

  private readonly uploads?: LoopbackUploads;

  constructor(limits: BudgetLimits, loopbackUploads = false) {
    this.budget = new Budget(limits);
    this.inlineMaxBytes = limits.maxBytes;
    if (loopbackUploads) this.uploads = new LoopbackUploads((key, bytes) => this.put(key, bytes));
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const previous = this.blobs.get(key);
    this.budget.reserve(previous ? 0 : 1, bytes.byteLength - (previous?.byteLength ?? 0), "file");
    // A copy: the caller's buffer may be reused (a Lambda event's body is not ours to keep).
    this.blobs.set(key, Buffer.from(bytes));
  }

  async get(key: string): Promise<Buffer | undefined> {
    return this.blobs.get(key);
  }

  async digest(key: string): Promise<FileDigest | undefined> {
    const bytes = this.blobs.get(key);
    return bytes && digestOf(bytes);
  }

  async delete(key: string): Promise<void> {
    const bytes = this.blobs.get(key);
    if (!bytes) return;
    this.blobs.delete(key);
    this.budget.release(1, bytes.byteLength);
  }

  async uploadUrl(key: string, size: number, expiresInSeconds: number): Promise<string | undefined> {
    return this.uploads?.url(key, size, expiresInSeconds);
  }

  async downloadUrl(): Promise<undefined> {
    return undefined;
  }
}
