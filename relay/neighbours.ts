import { readFileSync } from "node:fs";

/**
 * The MAC of a machine on the relay's own network, from the host's neighbour (ARP) table: a
 * machine's firmware asks for its loader by TFTP, which names no MAC, but it has just resolved the
 * relay's address, so the host holds its MAC. Undefined when the machine is not a neighbour (a
 * routed network, a DHCP relay between): the service then answers its setting's loader.
 */
export function macOfAddress(address: string, table: string): string | undefined {
  for (const line of table.split("\n").slice(1)) {
    const [ip, , , mac] = line.trim().split(/\s+/);
    // An entry learnt from the machine's own ARP request (its flags 0x0: not confirmed) holds its MAC;
    // one still being resolved holds zeros.
    if (ip === address && /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i.test(mac ?? "") && mac !== "00:00:00:00:00:00") return mac.toLowerCase();
  }
  return undefined;
}

/** Linux's table; empty where there is none (the relay then leaves the choice to the service's setting). */
export function hostNeighbours(): string {
  try {
    return readFileSync("/proc/net/arp", "utf8");
  } catch {
    return "";
  }
}

/**
 * The MAC the site's DHCP server leased `address` to, from dnsmasq's lease file (one lease a line:
 * expiry, MAC, address, host name, client id). For a machine that is not the relay's neighbour (a
 * DHCP relay between). Undefined when no lease names the address.
 */
export function macOfLease(address: string, leases: string): string | undefined {
  for (const line of leases.split("\n")) {
    const [, mac, ip] = line.trim().split(/\s+/);
    if (ip === address && /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i.test(mac ?? "")) return mac.toLowerCase();
  }
  return undefined;
}
