/** Which node last fetched a boot profile from an IP address (RackHD's "lookups"). */
export interface LookupStore {
  remember(ip: string, nodeId: string): Promise<void>;
  nodeAt(ip: string): Promise<string | undefined>;
  forgetNode(nodeId: string): Promise<void>;
}
