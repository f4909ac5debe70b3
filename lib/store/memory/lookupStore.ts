import type { LookupStore } from "../../provisioning/boot/lookupStore";

/**
 * Lookups in memory, bounded: when the table is full the oldest IP goes. An IP seen again keeps
 * its place (deleting and re-inserting one key in a large V8 Map costs O(size) each time).
 */
export class MemoryLookupStore implements LookupStore {
  private readonly byIp = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  async remember(ip: string, nodeId: string): Promise<void> {
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
