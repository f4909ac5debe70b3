import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * A site's boot network on this host: a tap device (the machine's cable) with the host's address
 * on it, and Debian's dnsmasq answering DHCP on it the way docs/relay.md says a site's DHCP server
 * does, with no DNS and no TFTP of its own (the relay serves TFTP). Needs root (a tap device and
 * ports under 1024): the boot tier runs as root in CI. Only a private /24 on this host is used.
 */
export interface TapNetwork {
  tap: string;
  /** The host's address on the network: where the relay listens. */
  hostIp: string;
  log: () => string;
  close: () => void;
}

export const TAP_NEEDS = ["/dev/net/tun", "/usr/sbin/dnsmasq"];
export const tapNetworkMissing = (): string[] =>
  process.getuid?.() === 0 ? TAP_NEEDS.filter((path) => !existsSync(path)) : ["root (for a tap device)"];

/** Up with `dhcp` (dnsmasq's options beyond the range, e.g. `--dhcp-boot=…`); the subnet is 10.<octet>.0.0/24. */
export function startTapNetwork(name: string, octet: number, dhcp: string[]): TapNetwork {
  const hostIp = `10.${octet}.0.1`;
  execFileSync("ip", ["tuntap", "add", "dev", name, "mode", "tap"]);
  execFileSync("ip", ["addr", "add", `${hostIp}/24`, "dev", name]);
  execFileSync("ip", ["link", "set", name, "up"]);
  let log = "";
  const dnsmasq: ChildProcess = spawn(
    "/usr/sbin/dnsmasq",
    [
      "--no-daemon",
      "--conf-file=/dev/null",
      "--port=0",
      `--interface=${name}`,
      "--bind-interfaces",
      "--except-interface=lo",
      `--dhcp-range=10.${octet}.0.50,10.${octet}.0.99,12h`,
      "--log-dhcp",
      ...dhcp,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  dnsmasq.stdout?.on("data", (chunk) => (log += chunk));
  dnsmasq.stderr?.on("data", (chunk) => (log += chunk));
  return {
    tap: name,
    hostIp,
    log: () => log,
    close: () => {
      dnsmasq.kill();
      try {
        execFileSync("ip", ["link", "del", name], { stdio: "ignore" });
      } catch {
        // already gone
      }
    },
  };
}
