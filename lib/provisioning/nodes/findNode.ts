import { NotFoundError } from "../../errors";
import { nodeAtAddress } from "../lookups/lookupService";
import { normalizeIdentifier } from "../mac";
import type { StoresOf } from "../ports";
import { fitsKey } from "../recordSize";
import type { Node } from "./node";

const IPV4 = /^(\d{1,3}\.){3}\d{1,3}$/;

/**
 * The node named by `identifier`: its id, one of its identifiers (a MAC in any spelling), or an
 * IP address it fetched a boot profile from.
 */
export async function findNode(stores: StoresOf<"lookups" | "nodes">, identifier: string): Promise<Node> {
  if (!fitsKey(identifier)) throw new NotFoundError(`Could not find node with identifier ${identifier.slice(0, 64)}…`);
  let node = await stores.nodes.find(normalizeIdentifier(identifier));
  if (!node && IPV4.test(identifier)) {
    const id = await nodeAtAddress(stores, identifier);
    if (id !== undefined) node = await stores.nodes.get(id);
  }
  if (!node) throw new NotFoundError(`Could not find node with identifier ${identifier}`);
  return node;
}
