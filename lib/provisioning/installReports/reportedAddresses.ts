import { isIP } from "node:net";
import { ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import { recordAddress } from "../lookups/lookupService";
import { normalizeMac } from "../mac";
import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";

/**
 * The installed system's addresses, per NIC (issue 50): the microkernel's DHCP lease is not the
 * installed system's (it asks with another client id, and may get another address), so the
 * lookups and the console showed an address SSH could not reach. The installed system reports
 * its own on its first boot (the vendor-data's script, cloudInit/seedService.ts), on the reports
 * route, as an `addresses` field of a cloud-init-shaped event.
 */
export interface ReportedNic {
  /** The interface's name in the installed system (`enp0s3`). */
  name: string;
  mac: string;
  /** Its global addresses, with their prefix length (`10.98.0.60/24`, `2001:db8::5/64`). */
  addresses: string[];
}

/** What the node keeps: the NICs, who reported them, and when. */
export interface NodeAddresses {
  nics: ReportedNic[];
  source: "installed-system";
  reportedAt: string;
}

export const ADDRESS_LIMITS = { nics: 16, addressesPerNic: 16, nameChars: 32 } as const;

const INTERFACE_NAME = new RegExp(`^[A-Za-z0-9._:@-]{1,${ADDRESS_LIMITS.nameChars}}$`);

function addressOf(value: unknown, where: string): string {
  if (typeof value !== "string" || value.length > 64) throw new ValidationError(`${where} must be an address with its prefix length`);
  const [ip, prefix, ...rest] = value.split("/");
  const family = isIP(ip);
  const length = Number(prefix);
  const max = family === 6 ? 128 : 32;
  if (family === 0 || rest.length > 0 || !/^\d{1,3}$/.test(prefix ?? "") || length > max) {
    throw new ValidationError(`${where} must be an address with its prefix length (10.0.0.5/24)`);
  }
  return `${ip}/${length}`;
}

/** The event's `addresses`, checked: at most 16 NICs of at most 16 addresses, each a MAC and a name. */
export function parseReportedNics(value: unknown): ReportedNic[] {
  if (!Array.isArray(value) || value.length > ADDRESS_LIMITS.nics) {
    throw new ValidationError(`addresses must be an array of at most ${ADDRESS_LIMITS.nics} NICs`);
  }
  return value.map((nic, i) => {
    const where = `addresses[${i}]`;
    if (!isPlainObject(nic)) throw new ValidationError(`${where} must be an object with name, mac and addresses`);
    if (typeof nic.name !== "string" || !INTERFACE_NAME.test(nic.name))
      throw new ValidationError(`${where}.name must be an interface name`);
    const mac = typeof nic.mac === "string" ? normalizeMac(nic.mac) : undefined;
    if (!mac) throw new ValidationError(`${where}.mac must be a MAC address`);
    if (!Array.isArray(nic.addresses) || nic.addresses.length > ADDRESS_LIMITS.addressesPerNic) {
      throw new ValidationError(`${where}.addresses must be an array of at most ${ADDRESS_LIMITS.addressesPerNic} addresses`);
    }
    return { name: nic.name, mac, addresses: nic.addresses.map((address, j) => addressOf(address, `${where}.addresses[${j}]`)) };
  });
}

/**
 * Keeps the reported NICs on the node (`addresses`), and points the lookup of each of the node's
 * own MACs at that NIC's first IPv4 address: what the console and `GET /lookups` show is then the
 * installed system's. A NIC whose MAC is not one of the node's identifiers is shown on the node but
 * moves no lookup: what a machine says never changes another node's identity.
 */
export async function keepReportedAddresses(
  stores: StoresOf<"lookups" | "nodes">,
  node: Node,
  nics: readonly ReportedNic[],
  now: Date,
): Promise<void> {
  const addresses: NodeAddresses = { nics: [...nics], source: "installed-system", reportedAt: now.toISOString() };
  await stores.nodes.update(node.id, (current) => ({ ...current, addresses, updatedAt: now.toISOString() }), node);
  const own = new Set(node.identifiers.map((identifier) => normalizeMac(identifier)).filter(Boolean));
  for (const nic of nics) {
    const ipv4 = nic.addresses.map((address) => address.split("/")[0]).find((ip) => isIP(ip) === 4);
    if (own.has(nic.mac) && ipv4) await recordAddress(stores, nic.mac, node.id, ipv4, now);
  }
}
