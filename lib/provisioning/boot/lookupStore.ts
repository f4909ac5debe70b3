/** Which node last fetched a boot profile from an IP address (RackHD's "lookups"). */
export interface LookupStore {
  remember(ip: string, nodeId: string): Promise<void>;
  nodeAt(ip: string): Promise<string | undefined>;
  forgetNode(nodeId: string): Promise<void>;
}

/** Lookups in memory, bounded: the oldest entry goes when the table is full. */
export class MemoryLookupStore implements LookupStore {
  private readonly byIp = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  async remember(ip: string, nodeId: string): Promise<void> {
    this.byIp.delete(ip);
    this.byIp.set(ip, nodeId);
    if (this.byIp.size > this.capacity) this.byIp.delete(this.byIp.keys().next().value!);
  }

  async nodeAt(ip: string): Promise<string | undefined> {
    return this.byIp.get(ip);
  }

  async forgetNode(nodeId: string): Promise<void> {
    for (const [ip, owner] of this.byIp) if (owner === nodeId) this.byIp.delete(ip);
  }
}
