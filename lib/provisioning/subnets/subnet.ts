import { ValidationError } from "../../errors";
import {
  type Cidr,
  canonical,
  cidrText,
  contains,
  type Family,
  hostBounds,
  overlaps,
  parseCidr,
  sortKey,
  toNumber,
  toText,
} from "./address";
import type { RangeKind } from "./rangeKinds";

/**
 * A subnet of a site (issue 54, MAAS's model): its CIDR and what an installed system on it needs
 * (gateway, name servers, search domains, VLAN, MTU), and its ranges: `boot`, what the site's own
 * DHCP hands out (machines boot and the microkernel runs there; the service never allocates from
 * it), `pool`, the static addresses the service allocates to planned interfaces, and `reserved`,
 * addresses it never gives (a switch, a VIP, a printer).
 */
export { RANGE_KINDS, type RangeKind } from "./rangeKinds";

export interface AddressRange {
  kind: RangeKind;
  start: string;
  end: string;
  comment?: string;
}

export interface Subnet {
  id: string;
  name: string;
  /** The site whose machines it holds; absent: a subnet of the machines in no site. */
  site?: string;
  cidr: string;
  gateway?: string;
  nameservers: string[];
  searchDomains: string[];
  /** The 802.1Q tag its traffic carries on a trunk; absent: untagged. */
  vlan?: number;
  mtu?: number;
  ranges: AddressRange[];
  createdAt: string;
  updatedAt: string;
}

/** What a client sets (POST whole, PATCH in part): checked for types and bounds by the HTTP schema. */
export interface SubnetFields {
  name?: string;
  site?: string | null;
  cidr?: string;
  gateway?: string | null;
  nameservers?: string[];
  searchDomains?: string[];
  vlan?: number | null;
  mtu?: number | null;
  ranges?: AddressRange[];
}

/** A subnet's numbers, read once from its text. */
export interface SubnetShape {
  cidr: Cidr;
  /** Its ranges as numbers, in the order given. */
  ranges: { kind: RangeKind; first: bigint; last: bigint }[];
}

export function shapeOf(subnet: Pick<Subnet, "cidr" | "ranges">): SubnetShape {
  const cidr = parseCidr(subnet.cidr);
  if (!cidr) throw new ValidationError(`cidr ${subnet.cidr} is not a network address with its prefix length (10.20.0.0/24)`);
  const ranges = subnet.ranges.map((range, index) => {
    const first = addressIn(cidr, range.start, `ranges[${index}].start`);
    const last = addressIn(cidr, range.end, `ranges[${index}].end`);
    if (first > last) throw new ValidationError(`ranges[${index}] ends (${range.end}) before it starts (${range.start})`);
    return { kind: range.kind, first, last };
  });
  return { cidr, ranges };
}

/** An address of the subnet's family, inside its CIDR, as a number. */
function addressIn(cidr: Cidr, text: string, where: string): bigint {
  const number = toNumber(text);
  if (!number || !contains(cidr, number.family, number.value)) {
    throw new ValidationError(`${where} (${text}) is not an address inside ${cidrText(cidr)}`);
  }
  return number.value;
}

const familyName = (family: Family) => (family === 4 ? "IPv4" : "IPv6");

/**
 * The subnet as it is kept: addresses in canonical form, checked against each other (ranges
 * inside the CIDR and apart, a pool's addresses hosts, the gateway inside and outside the pool, the
 * name servers addresses) and against the site's other subnets (no two share an address).
 */
export function checkSubnet<T extends Omit<Subnet, "id" | "createdAt" | "updatedAt">>(subnet: T, siblings: readonly Subnet[]): T {
  const shape = shapeOf(subnet);
  const { cidr } = shape;
  shape.ranges.forEach((range, index) => {
    const clash = shape.ranges.findIndex((other, at) => at !== index && range.first <= other.last && other.first <= range.last);
    if (clash >= 0) throw new ValidationError(`ranges[${index}] and ranges[${clash}] overlap: a subnet's ranges are apart`);
    if (range.kind === "pool") {
      const hosts = hostBounds(cidr);
      if (range.first < hosts.first || range.last > hosts.last) {
        throw new ValidationError(`ranges[${index}] holds ${cidrText(cidr)}'s network or broadcast address, which no host can have`);
      }
    }
  });
  const gateway = subnet.gateway === undefined ? undefined : toText(cidr.family, addressIn(cidr, subnet.gateway, "gateway"));
  if (gateway !== undefined) {
    const value = toNumber(gateway)!.value;
    if (shape.ranges.some((range) => range.kind === "pool" && range.first <= value && value <= range.last)) {
      throw new ValidationError(`gateway ${gateway} is inside a pool: the service would give it to a machine`);
    }
  }
  const nameservers = subnet.nameservers.map((server, index) => {
    const text = canonical(server);
    if (text === undefined) throw new ValidationError(`nameservers[${index}] (${server}) is not an IPv4 or IPv6 address`);
    return text;
  });
  for (const sibling of siblings) {
    const other = parseCidr(sibling.cidr);
    if (other && overlaps(cidr, other)) {
      throw new ValidationError(`cidr ${cidrText(cidr)} overlaps subnet ${sibling.id} (${sibling.cidr}) of the same site`);
    }
  }
  const ranges = subnet.ranges.map((range, index) => ({
    ...range,
    start: toText(cidr.family, shape.ranges[index].first),
    end: toText(cidr.family, shape.ranges[index].last),
  }));
  return { ...subnet, cidr: cidrText(cidr), ...(gateway !== undefined && { gateway }), nameservers, ranges };
}

/** Why an address of the subnet cannot be given to a host by hand, or undefined when it can. */
export function unassignable(subnet: Subnet, text: string): string | undefined {
  const { cidr, ranges } = shapeOf(subnet);
  const number = toNumber(text);
  if (!number || !contains(cidr, number.family, number.value))
    return `${text} is not an ${familyName(cidr.family)} address inside ${subnet.cidr}`;
  const hosts = hostBounds(cidr);
  if (number.value < hosts.first || number.value > hosts.last) return `${text} is ${subnet.cidr}'s network or broadcast address`;
  if (subnet.gateway !== undefined && toNumber(subnet.gateway)?.value === number.value) return `${text} is ${subnet.cidr}'s gateway`;
  const range = ranges.find((r) => r.kind !== "pool" && r.first <= number.value && number.value <= r.last);
  if (range?.kind === "boot") return `${text} is in the boot range the site's DHCP hands out`;
  if (range?.kind === "reserved") return `${text} is reserved`;
  return undefined;
}

/** The subnet's family (4 or 6). */
export const familyOfSubnet = (subnet: Pick<Subnet, "cidr">): Family => parseCidr(subnet.cidr)!.family;

/** The prefix length written after a planned address (`/24`). */
export const prefixOf = (subnet: Pick<Subnet, "cidr">): number => parseCidr(subnet.cidr)!.prefix;

/** The pools' bounds as sort keys, in address order: where allocation looks for a free address. */
export function poolKeys(subnet: Subnet): { from: string; to: string }[] {
  const { cidr, ranges } = shapeOf(subnet);
  return ranges
    .filter((range) => range.kind === "pool")
    .sort((a, b) => (a.first < b.first ? -1 : 1))
    .map((range) => ({ from: sortKey(cidr.family, range.first), to: sortKey(cidr.family, range.last) }));
}

/** How many addresses the subnet's pools hold. */
export const poolSize = (subnet: Subnet): bigint =>
  shapeOf(subnet)
    .ranges.filter((range) => range.kind === "pool")
    .reduce((sum, range) => sum + range.last - range.first + 1n, 0n);
