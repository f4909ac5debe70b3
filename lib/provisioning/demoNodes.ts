import { nodeIdForMac } from "./ids";
import { buildNode, type Node } from "./nodes/node";

/** A fixed date, so every container creates the demo nodes identically. */
const DEMO_CREATED_AT = new Date("2015-11-30T21:37:18.441Z");

/** Two discovered compute nodes, as PXE discovery would have created them. Ids derive from the MACs. */
export const DEMO_MACS = ["08:00:27:27:eb:12", "08:00:27:9b:d4:01"] as const;

export const demoNodes = (): Node[] =>
  DEMO_MACS.map((mac) => buildNode({ fields: { name: mac, identifiers: [mac] } }, nodeIdForMac(mac), DEMO_CREATED_AT));
