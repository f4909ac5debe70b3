import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * A site's boot network on this host: a bridge (the site's switch) with the host's address on
 * it, a tap device per machine plugged into it (each machine's cable: one QEMU per tap), and
 * Debian's dnsmasq answering DHCP on it the way docs/relay.md says a site's DHCP server does, with
 * no DNS and no TFTP of its own (the relay serves TFTP). Needs root (tap devices and ports under
 * 1024): the boot tier runs as root in CI. Only a private /24 on this host is used.
 */
export interface TapNetwork {
  /** The machines' cables: `taps[n]` for the n-th machine running at once. */
  taps: string[];
  /** The host's address on the network: where the relay listens. */
  hostIp: string;
  log: () => string;
  close: () => void;
}

export const TAP_NEEDS = ["/dev/net/tun", "/usr/sbin/dnsmasq"];
export const tapNetworkMissing = (): string[] =>
  process.getuid?.() === 0 ? TAP_NEEDS.filter((path) => !existsSync(path)) : ["root (for a tap device)"];

/** Deletes `device` if it is still there. */
const deleteLink = (device: string): void => {
  try {
    execFileSync("ip", ["link", "del", device], { stdio: "ignore" });
  } catch {
    // already gone
  }
};

/**
 * Removes the bridges (and their taps) that hold `hostIp` already: left by a test run that was
 * killed before its clean-up ran (npm test stops the server tiers when a fast check fails). With
 * two bridges on one subnet, the host routed the relay's TFTP answers down the dead one, and every
 * machine's TFTP timed out (seen in CI). One subnet serves one test at a time.
 */
export function removeStaleBridges(hostIp: string): void {
  const addresses = execFileSync("ip", ["-o", "-4", "addr", "show"], { encoding: "utf8" });
  for (const line of addresses.split("\n")) {
    const [, device, , address] = line.split(/\s+/);
    if (address !== `${hostIp}/24`) continue;
    const ports = execFileSync("ip", ["-o", "link", "show", "master", device], { encoding: "utf8" });
    for (const port of ports.matchAll(/^\d+: ([^:@\s]+)/gm)) deleteLink(port[1]);
    deleteLink(device);
  }
}

/**
 * dnsmasq as a site's DHCP on `bridge` (docs/relay.md): in the foreground, no configuration file,
 * no DNS (port 0) and no TFTP of its own (the relay serves it), on the bridge only, each exchange logged.
 */
export const siteDhcpArgs = (bridge: string, range: readonly [string, string]): string[] => [
  "--no-daemon",
  "--conf-file=/dev/null",
  "--port=0",
  `--interface=${bridge}`,
  "--bind-interfaces",
  "--except-interface=lo",
  `--dhcp-range=${range[0]},${range[1]},12h`,
  "--log-dhcp",
];

/**
 * Up with `machines` taps and `dhcp` (dnsmasq's options beyond the range, e.g. `--dhcp-boot=…`);
 * the subnet is 10.<octet>.0.0/24, the bridge is `name`, its taps `name`t0, `name`t1, ….
 */
export function startTapNetwork(name: string, octet: number, dhcp: string[], machines = 1): TapNetwork {
  const hostIp = `10.${octet}.0.1`;
  removeStaleBridges(hostIp);
  execFileSync("ip", ["link", "add", name, "type", "bridge"]);
  execFileSync("ip", ["addr", "add", `${hostIp}/24`, "dev", name]);
  execFileSync("ip", ["link", "set", name, "up"]);
  const taps = Array.from({ length: machines }, (_, n) => `${name}t${n}`);
  for (const tap of taps) {
    execFileSync("ip", ["tuntap", "add", "dev", tap, "mode", "tap"]);
    execFileSync("ip", ["link", "set", tap, "master", name]);
    execFileSync("ip", ["link", "set", tap, "up"]);
  }
  let log = "";
  const dnsmasq: ChildProcess = spawn("/usr/sbin/dnsmasq", [...siteDhcpArgs(name, [`10.${octet}.0.50`, `10.${octet}.0.99`]), ...dhcp], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  dnsmasq.stdout?.on("data", (chunk) => (log += chunk));
  dnsmasq.stderr?.on("data", (chunk) => (log += chunk));
  return {
    taps,
    hostIp,
    log: () => log,
    close: () => {
      dnsmasq.kill();
      for (const device of [...taps, name]) deleteLink(device);
    },
  };
}
