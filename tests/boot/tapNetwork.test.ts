import { execFileSync } from "node:child_process";
import { removeStaleBridges, startTapNetwork, tapNetworkMissing } from "../../lab/tapNetwork";

/**
 * The test network's own clean-up: a bridge left on a subnet by a killed run (its afterAll never
 * ran) is removed when the next network on that subnet starts. Left in place, the host routed the
 * relay's TFTP answers down the dead bridge and every machine's TFTP timed out (CI, 2026-11-27).
 * 10.97.0.0/24: no other test uses it.
 */
const links = (): string => execFileSync("ip", ["-o", "link", "show"], { encoding: "utf8" });
const missing = tapNetworkMissing();

(missing.length === 0 ? describe : describe.skip)("the boot tests' tap network", () => {
  it("removes a bridge and its taps left on its subnet by a killed run, and only those", () => {
    const stale = `stale${process.pid % 10_000}`;
    const fresh = `fresh${process.pid % 10_000}`;
    for (const args of [
      ["link", "add", stale, "type", "bridge"],
      ["addr", "add", "10.97.0.1/24", "dev", stale],
      ["tuntap", "add", "dev", `${stale}t0`, "mode", "tap"],
      ["link", "set", `${stale}t0`, "master", stale],
    ])
      execFileSync("ip", args);
    const network = startTapNetwork(fresh, 97, [], 1);
    try {
      expect(links()).not.toContain(`${stale}:`);
      expect(links()).not.toContain(`${stale}t0`);
      expect(links()).toContain(network.taps[0]);
      const routes = execFileSync("ip", ["-4", "route", "show", "10.97.0.0/24"], { encoding: "utf8" }).trim().split("\n");
      expect(routes).toHaveLength(1);
      expect(routes[0]).toContain(`dev ${fresh}`);
      removeStaleBridges("10.96.0.1");
      expect(links()).toContain(`${fresh}:`);
    } finally {
      network.close();
    }
    expect(links()).not.toContain(fresh);
  });
});
