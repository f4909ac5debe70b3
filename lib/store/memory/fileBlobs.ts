import { digestOf } from "../../provisioning/files/digest";
import type { FileBlobs, FileDigest } from "../../provisioning/files/fileBlobs";
import { Budget, type BudgetLimits } from "./budget";

/**
 * Files' bytes in this container's memory, bounded by the store's byte budget. There are no
 * presigned URLs here: every file comes and goes inline, up to the budget.
 */
export class MemoryFileBlobs implements FileBlobs {
  private readonly blobs = new Map<string, Buffer>();
  private readonly budget: Budget;
  readonly inlineMaxBytes: number;

  constructor(limits: BudgetLimits) {
    this.budget = new Budget(limits);
    this.inlineMaxBytes = limits.maxBytes;
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

  async uploadUrl(): Promise<undefined> {
    return undefined;
  }

  async downloadUrl(): Promise<undefined> {
    return undefined;
  }
}
