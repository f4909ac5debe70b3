import { ValidationError } from "../../errors";
import type { NodeAddresses } from "../installReports/reportedAddresses";
import { recordAddress } from "../lookups/lookupService";
import { isMac, normalizeMac } from "../mac";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import { familyOf } from "../subnets/address";
import type { AddressAllocation } from "../subnets/addressStore";
import { allocateNext, claimAddress, freeAddress } from "../subnets/allocation";
import type { Subnet } from "../subnets/subnet";
import { findSubnet } from "../subnets/subnetService";
import { renderNetplan } from "./netplan";
import {
  checkInterfaces,
  type GivenAddress,
  macOf,
  missingMacs,
  type Netplan,
  type NetworkPlan,
  type PlannedInterface,
  planOf,
} from "./networkPlan";

type PlanStores = StoresOf<"addresses" | "lookups" | "nodes" | "subnets">;

/** A plan as answered: the plan, what the installed system reported, and where they differ. */
export interface NetworkPlanView {
  node: string;
  interfaces: PlannedInterface[];
  given: GivenAddress[];
  /** The plan's MACs the node does not have: its install is refused until they are fixed. */
  missingMacs: string[];
  /** The installed system's own report (its first boot), if any. */
  seen?: NodeAddresses;
  /** Each planned address the report does not show, and each interface it shows on another address. */
  differences: string[];
  /** The network-config the installed system gets. */
  netplan: Netplan;
  updatedAt: string;
}

const subnetsOf = async (stores: StoresOf<"subnets">, interfaces: PlannedInterface[]): Promise<Map<string, Subnet>> => {
  const ids = [...new Set(interfaces.flatMap((iface) => (iface.subnet === undefined ? [] : [iface.subnet])))];
  const found = await Promise.all(ids.map((id) => stores.subnets.get(id)));
  return new Map(found.flatMap((subnet) => (subnet ? [[subnet.id, subnet] as const] : [])));
};

/** Planned addresses against the report: per interface name, the address with its prefix. */
export function differencesOf(
  plan: Pick<NetworkPlan, "given">,
  subnets: ReadonlyMap<string, Subnet>,
  seen: NodeAddresses | undefined,
): string[] {
  if (!seen) return [];
  return plan.given.flatMap((given) => {
    const nic = seen.nics.find((candidate) => candidate.name === given.interface);
    const found = nic?.addresses.map((address) => address.split("/")[0]) ?? [];
    if (found.includes(given.address)) return [];
    const prefix = subnets.get(given.subnet)?.cidr.split("/")[1];
    const planned = `${given.address}/${prefix}`;
    return [
      nic
        ? `${given.interface}: planned ${planned}, seen ${found.length > 0 ? nic.addresses.join(", ") : "no address"}`
        : `${given.interface}: planned ${planned}, and the installed system reported no ${given.interface}`,
    ];
  });
}

/**
 * The MACs the service knows the machine has: its identifiers (the MACs it booted with, or an
 * operator gave) and its lookups (discovery records every NIC of its lshw catalog there).
 */
export async function nodeMacs(stores: StoresOf<"lookups">, node: Node): Promise<Set<string>> {
  const lookups = await stores.lookups.forNode(node.id);
  return new Set([...node.identifiers.filter(isMac).map((mac) => normalizeMac(mac)!), ...lookups.map((lookup) => lookup.macAddress)]);
}

async function view(stores: StoresOf<"lookups" | "subnets">, node: Node): Promise<NetworkPlanView> {
  const plan = planOf(node);
  if (!plan)
    return {
      node: node.id,
      interfaces: [],
      given: [],
      missingMacs: [],
      differences: [],
      netplan: { version: 2, ethernets: {} },
      updatedAt: node.updatedAt,
    };
  const subnets = await subnetsOf(stores, plan.interfaces);
  const seen = node.addresses as NodeAddresses | undefined;
  return {
    node: node.id,
    interfaces: plan.interfaces,
    given: plan.given,
    missingMacs: missingMacs(plan, await nodeMacs(stores, node)),
    ...(seen && { seen }),
    differences: differencesOf(plan, subnets, seen),
    netplan: renderNetplan(plan, subnets),
    updatedAt: plan.updatedAt,
  };
}

/** GET /nodes/{identifier}/network. */
export async function getNetworkPlan(stores: StoresOf<"lookups" | "nodes" | "subnets">, identifier: string): Promise<NetworkPlanView> {
  return view(stores, await findNode(stores, identifier));
}

/**
 * The addresses the interfaces need: those `kept` already gives are kept (same interface, subnet
 * and, for a fixed one, address), the others given now. On a refusal, what this call gave is
 * freed again before the error goes on: the request changes nothing.
 */
async function giveAddresses(
  stores: StoresOf<"addresses">,
  node: Node,
  interfaces: PlannedInterface[],
  subnets: ReadonlyMap<string, Subnet>,
  kept: GivenAddress[],
  now: Date,
): Promise<{ given: GivenAddress[]; made: AddressAllocation[] }> {
  const given: GivenAddress[] = [];
  const made: AddressAllocation[] = [];
  try {
    for (const iface of interfaces) {
      if (iface.subnet === undefined || iface.address === undefined || iface.address === "dhcp") continue;
      const old = kept.find(
        (k) => k.interface === iface.name && k.subnet === iface.subnet && (iface.address === "auto" || k.address === iface.address),
      );
      if (old) {
        given.push(old);
        continue;
      }
      const subnet = subnets.get(iface.subnet)!;
      const holder = { node: node.id, interface: iface.name };
      const allocation =
        iface.address === "auto"
          ? await allocateNext(stores, subnet, holder, now)
          : await claimAddress(stores, subnet, iface.address, holder, now);
      made.push(allocation);
      given.push({ interface: iface.name, subnet: subnet.id, address: allocation.address, allocation: allocation.id });
    }
  } catch (error) {
    await Promise.all(made.map((allocation) => freeAddress(stores, allocation.id, node.id)));
    throw error;
  }
  return { given, made };
}

/** The planned IPv4 addresses become the node's lookups (their interface's MAC), as RackHD's clients read addresses there. */
async function recordLookups(
  stores: StoresOf<"lookups" | "nodes">,
  node: Node,
  plan: Pick<NetworkPlan, "interfaces" | "given">,
  now: Date,
) {
  const known = await nodeMacs(stores, node);
  for (const given of plan.given) {
    const mac = macOf(plan, given.interface);
    // A MAC the machine is not known to have is left out: a lookup would make it the node's on the plan's word alone.
    if (mac !== undefined && known.has(mac) && familyOf(given.address) === 4) await recordAddress(stores, mac, node.id, given.address, now);
  }
}

/**
 * PUT /nodes/{identifier}/network: the node's plan, whole. Its addresses are given now (the
 * operator sees them before the install), kept where the old plan had them, and the old plan's
 * others freed once the new one is stored.
 */
export async function setNetworkPlan(
  stores: PlanStores,
  identifier: string,
  body: { interfaces: PlannedInterface[] },
  now: Date,
): Promise<NetworkPlanView> {
  const node = await findNode(stores, identifier);
  const subnets = await subnetsOf(stores, body.interfaces);
  const interfaces = checkInterfaces(body.interfaces, subnets, node);
  const old = planOf(node);
  const { given, made } = await giveAddresses(stores, node, interfaces, subnets, old?.given ?? [], now);
  const plan: NetworkPlan = { interfaces, given, netplan: renderNetplan({ interfaces, given }, subnets), updatedAt: now.toISOString() };
  const stored = await stores.nodes.update(node.id, (current) => ({ ...current, network: plan, updatedAt: plan.updatedAt }), node);
  if (!stored) {
    await Promise.all(made.map((allocation) => freeAddress(stores, allocation.id, node.id)));
    return view(stores, await findNode(stores, identifier));
  }
  const dropped = (old?.given ?? []).filter((address) => !given.some((kept) => kept.allocation === address.allocation));
  await Promise.all(dropped.map((address) => freeAddress(stores, address.allocation, node.id)));
  await recordLookups(stores, stored, plan, now);
  return view(stores, stored);
}

/** DELETE /nodes/{identifier}/network: the installed system configures every NIC by DHCP again; the addresses are freed. */
export async function deleteNetworkPlan(stores: PlanStores, identifier: string, now: Date): Promise<Node> {
  const node = await findNode(stores, identifier);
  const plan = planOf(node);
  if (!plan) return node;
  const stored = await stores.nodes.update(
    node.id,
    (current) => {
      const { network: _gone, ...rest } = current;
      return { ...rest, updatedAt: now.toISOString() } as Node;
    },
    node,
  );
  await Promise.all(plan.given.map((address) => freeAddress(stores, address.allocation, node.id)));
  return stored ?? node;
}

/** The plan's addresses are now `given`: stored with the netplan they make (the install's). */
function withGiven(current: Node, given: GivenAddress[], subnets: ReadonlyMap<string, Subnet>, now: Date): Node {
  const stored = planOf(current);
  if (!stored) return current;
  const netplan = renderNetplan({ interfaces: stored.interfaces, given }, subnets);
  return { ...current, network: { ...stored, given, netplan }, updatedAt: now.toISOString() };
}

/** A release frees the plan's addresses (the plan stays: the next deploy gives them anew). */
export async function releaseAddresses(stores: StoresOf<"addresses" | "nodes" | "subnets">, node: Node, now: Date): Promise<void> {
  const plan = planOf(node);
  if (!plan || plan.given.length === 0) return;
  const subnets = await subnetsOf(stores, plan.interfaces);
  await stores.nodes.update(node.id, (current) => withGiven(current, [], subnets, now));
  await Promise.all(plan.given.map((address) => freeAddress(stores, address.allocation, node.id)));
}

/**
 * Before a deploy: a plan naming a MAC the machine does not have refuses the install, saying which
 * (the installed system would come up without its planned network); addresses a release freed are
 * given again, and the netplan is rendered again from its subnets as they are now.
 */
export async function prepareDeploy(stores: PlanStores, node: Node, now: Date): Promise<void> {
  const plan = planOf(node);
  if (!plan) return;
  const missing = missingMacs(plan, await nodeMacs(stores, node));
  if (missing.length > 0) {
    throw new ValidationError(
      `Node ${node.id}'s network plan names ${missing.join(", ")}, which the machine does not have (not among its identifiers or its catalogs' NICs): fix the plan, or discover the machine again`,
    );
  }
  const subnets = await subnetsOf(stores, plan.interfaces);
  for (const iface of plan.interfaces) if (iface.subnet !== undefined && !subnets.has(iface.subnet)) await findSubnet(stores, iface.subnet);
  const { given, made } = await giveAddresses(stores, node, plan.interfaces, subnets, plan.given, now);
  const stored = await stores.nodes.update(node.id, (current) => withGiven(current, given, subnets, now));
  if (!stored) await Promise.all(made.map((allocation) => freeAddress(stores, allocation.id, node.id)));
  else await recordLookups(stores, stored, { interfaces: plan.interfaces, given }, now);
}

/** The network-config of a node with a plan (the seed's), or undefined: the seed's own DHCP default. */
export async function plannedNetworkConfig(stores: StoresOf<"subnets">, node: Node): Promise<Netplan | undefined> {
  const plan = planOf(node);
  return plan && renderNetplan(plan, await subnetsOf(stores, plan.interfaces));
}
