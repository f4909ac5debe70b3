import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { labSshArgv, leasedAddress, runCommand } from "../../../lab/ssh";

describe("SSH into a lab machine (lab/ssh.ts)", () => {
  it("logs in from inside the lab's namespace with the lab's key, keeping no host key, the options before the login", () => {
    expect(labSshArgv("lab77", "/lab/id_ed25519", "ops@10.77.0.50", ["uname", "-a"], ["-o", "BatchMode=yes"])).toEqual([
      ...["ip", "netns", "exec", "lab77", "ssh", "-i", "/lab/id_ed25519"],
      ...["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "BatchMode=yes"],
      ...["ops@10.77.0.50", "uname", "-a"],
    ]);
    expect(labSshArgv("lab77", "/k", "root@10.77.0.9").slice(-1)).toEqual(["root@10.77.0.9"]);
  });

  it("finds a machine's address in dnsmasq's leases by any of its MACs, none without a lease or a file", () => {
    const dir = mkdtempSync(join(tmpdir(), "leases-"));
    try {
      const file = join(dir, "dnsmasq.leases");
      expect(leasedAddress(file, ["52:54:00:00:00:01"])).toBeUndefined();
      writeFileSync(
        file,
        "1795900000 52:54:00:00:00:02 10.77.0.61 * 01:52:54:00:00:00:02\n1795900000 52:54:00:00:00:01 10.77.0.60 bios-1 *\n",
      );
      expect(leasedAddress(file, ["52:54:00:00:00:09", "52:54:00:00:00:01"])).toBe("10.77.0.60");
      expect(leasedAddress(file, ["52:54:00:00:00:09"])).toBeUndefined();
      // As a rescued machine's lab saw it: the installed system's lease (given last, listed first), and the
      // microkernel's, renewed since: the renewed one is the newest.
      writeFileSync(
        file,
        "1795977244 52:54:00:1a:b0:01 10.75.0.90 localhost ff:00:1a:b0:01\n1795977324 52:54:00:1a:b0:01 10.75.0.89 * 01:52:54:00:1a:b0:01\n",
      );
      expect(leasedAddress(file, ["52:54:00:1a:b0:01"])).toBe("10.75.0.89");
      writeFileSync(file, "1795977324 52:54:00:1a:b0:01 10.75.0.90 localhost ff:00\n1795977324 52:54:00:1a:b0:01 10.75.0.89 * 01\n");
      expect(leasedAddress(file, ["52:54:00:1a:b0:01"])).toBe("10.75.0.90");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs a command without blocking: its input, output, errors and status; killed at its time-out; one that cannot start", async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const done = await runCommand(["sh", "-c", "sleep 0.3; cat; echo oops >&2; exit 3"], { timeoutMs: 10_000, input: "typed\n" });
    clearInterval(timer);
    expect(done).toEqual({ status: 3, stdout: "typed\n", stderr: "oops\n" });
    // The event loop ran while the command did (spawnSync would have held it for the 0.3 s).
    expect(ticks).toBeGreaterThan(5);
    expect((await runCommand(["sleep", "5"], { timeoutMs: 200 })).status).toBeNull();
    const missing = await runCommand(["/nonexistent/ssh"], { timeoutMs: 1000 });
    expect(missing.status).toBeNull();
    expect(missing.stderr).toMatch(/ENOENT/);
  });
});
