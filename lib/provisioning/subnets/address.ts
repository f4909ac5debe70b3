import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * IP addresses as numbers (issue 54): a subnet's ranges, its pool's next free address and the
 * order of its addresses are arithmetic on BigInts. Text is checked by Node's own `isIP` (strict:
 * no octal or short IPv4 forms, which ipaddr.js's lenient parser would take) and converted by
 * ipaddr.js, which writes IPv6 in its canonical short form (RFC 5952) both ways.
 */
export type Family = 4 | 6;

export interface Cidr {
  family: Family;
  /** The network's first address (the host bits cleared). */
  network: bigint;
  prefix: number;
}

const BITS: Record<Family, number> = { 4: 32, 6: 128 };

/** The family of a strictly written address, or undefined. */
export const familyOf = (text: string): Family | undefined => {
  const family = isIP(text);
  return family === 0 ? undefined : (family as Family);
};

/** The address's number; undefined when the text is not a strict IPv4 or IPv6 address. */
export function toNumber(text: string): { family: Family; value: bigint } | undefined {
  const family = familyOf(text);
  if (family === undefined) return undefined;
  const bytes = ipaddr.parse(text).toByteArray();
  return { family, value: bytes.reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n) };
}

/** The canonical text of an address number (dotted IPv4, RFC 5952 IPv6). */
export function toText(family: Family, value: bigint): string {
  const bytes: number[] = [];
  for (let shift = BITS[family] - 8; shift >= 0; shift -= 8) bytes.push(Number((value >> BigInt(shift)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

/** The canonical text of a strictly written address (`2001:DB8:0::1` → `2001:db8::1`), else undefined. */
export const canonical = (text: string): string | undefined => {
  const number = toNumber(text);
  return number && toText(number.family, number.value);
};

/** A CIDR (`10.20.0.0/24`, `2001:db8::/64`); undefined when it does not parse or has host bits set. */
export function parseCidr(text: string): Cidr | undefined {
  const [address, prefixText, ...rest] = text.split("/");
  const number = toNumber(address ?? "");
  if (!number || rest.length > 0 || !/^\d{1,3}$/.test(prefixText ?? "")) return undefined;
  const prefix = Number(prefixText);
  if (prefix > BITS[number.family]) return undefined;
  const network = number.value & maskOf(number.family, prefix);
  return network === number.value ? { family: number.family, network, prefix } : undefined;
}

const maskOf = (family: Family, prefix: number): bigint => {
  const all = (1n << BigInt(BITS[family])) - 1n;
  return all ^ ((1n << BigInt(BITS[family] - prefix)) - 1n);
};

/** The CIDR's last address (IPv4's broadcast address). */
export const lastOf = (cidr: Cidr): bigint => cidr.network | ((1n << BigInt(BITS[cidr.family] - cidr.prefix)) - 1n);

export const cidrText = (cidr: Cidr): string => `${toText(cidr.family, cidr.network)}/${cidr.prefix}`;

/** Whether the address is inside the CIDR (same family). */
export const contains = (cidr: Cidr, family: Family, value: bigint): boolean =>
  family === cidr.family && value >= cidr.network && value <= lastOf(cidr);

/** Whether two CIDRs share an address. */
export const overlaps = (a: Cidr, b: Cidr): boolean => a.family === b.family && a.network <= lastOf(b) && b.network <= lastOf(a);

/**
 * The addresses of a CIDR a host may hold: all but IPv4's network and broadcast addresses (a /31
 * and a /32 have none to spare, RFC 3021), and all but IPv6's subnet-router anycast address.
 */
export function hostBounds(cidr: Cidr): { first: bigint; last: bigint } {
  const last = lastOf(cidr);
  if (cidr.family === 4) return cidr.prefix >= 31 ? { first: cidr.network, last } : { first: cidr.network + 1n, last: last - 1n };
  return cidr.prefix >= 127 ? { first: cidr.network, last } : { first: cidr.network + 1n, last };
}

/**
 * A sort key for an address: fixed-width hex, so a store's string order is the addresses' order
 * (a DynamoDB sort key, a `BETWEEN` of a pool's bounds).
 */
export const sortKey = (family: Family, value: bigint): string => value.toString(16).padStart(BITS[family] / 4, "0");

export const fromSortKey = (key: string): bigint => BigInt(`0x${key}`);
