import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../../lab/cli";
import { commandOf, inNamespace, missingTools, run, stopProcesses, tsx } from "../../../lab/host";
import type { LabState } from "../../../lab/lab";
import { labMachines } from "../../../lab/machines";
import { labPlan } from "../../../lab/plan";

/**
 * `npm run lab`'s commands as a user types them (issue 52), short of `up` and `down`, which need
 * root, a namespace and QEMU (the boot tier's lab test runs those): its usage, its refusals, and
 * what it answers from a lab's state file.
 */
async function lab(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const stdout = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = jest.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  try {
    return { code: await main(argv), out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

describe("npm run lab (issue 52)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lab-cli-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("says how it is used: no command is a usage error, --help is not, an unknown command or option is", async () => {
    expect(await lab()).toMatchObject({ code: 2, out: expect.stringContaining("usage: npm run lab -- up") });
    expect(await lab("--help")).toMatchObject({ code: 0, out: expect.stringContaining("npm run lab -- down") });
    expect(await lab("launch")).toMatchObject({ code: 2, err: expect.stringContaining("unknown command launch") });
    expect(await lab("up", "--colour")).toMatchObject({ code: 2, err: expect.stringContaining("Unknown option '--colour'") });
  });

  it("names what is wrong in lab.yml, every problem at once, and makes nothing", async () => {
    const file = join(dir, "lab.yml");
    writeFileSync(file, "machines:\n  - name: Web\n    firmware: coreboot\n");
    const answer = await lab("up", "--file", file, "--dir", join(dir, "lab"));
    expect(answer.code).toBe(1);
    expect(answer.err).toContain("machines[0].name");
    expect(answer.err).toContain('machines[0].firmware: "coreboot" is not one of bios, uefi, uefi-secure-boot');
    expect(existsSync(join(dir, "lab"))).toBe(false);
  });

  it("takes machines from --machine flags through the same checks, and not with a file as well", async () => {
    const answer = await lab(
      "up",
      "--machine",
      "web-1,firmware=bios,nic=igb,disk=sas:none",
      "--machine",
      "db-1,colour=red",
      "--dir",
      join(dir, "lab"),
    );
    expect(answer.code).toBe(1);
    expect(answer.err).toContain("--machine is not one the lab can make");
    expect(answer.err).toContain('--machine db-1,colour=red: "colour" is not one of firmware, bmc, memory, nic, disk');
    const checked = await lab("up", "--machine", "web-1,disk=sas:none,memory=lots", "--dir", join(dir, "lab"));
    expect(checked.err).toContain('machines[0].disks[0].sizeGiB: "none" is not a whole number from 1 to 64');
    expect(checked.err).toContain('machines[0].memoryMiB: "lots" is not a whole number');
    expect(await lab("up", "--machine", "web-1", "--file", "lab.yml")).toMatchObject({ code: 1, err: expect.stringContaining("not both") });
    expect(existsSync(join(dir, "lab"))).toBe(false);
  });

  it("answers status, a machine's OBM setting and its user-data from the lab's state; a machine it does not have by name", async () => {
    expect(await lab("status", "--dir", dir)).toMatchObject({ code: 1, err: expect.stringContaining(`no lab is up in ${dir}`) });
    const plan = labPlan(labMachines(undefined), { dir, octet: 201 });
    const state: LabState = {
      plan,
      api: { url: "http://127.0.0.1:9" },
      kvm: { kvm: false, smm: false },
      bmcPasswords: { "bios-1": "pw-bios", "uefi-1": "pw-uefi", "secure-1": "pw-secure" },
      site: { id: "s1", name: "lab-201" },
      sshKey: join(dir, "id_ed25519"),
    };
    writeFileSync(join(dir, "lab.json"), JSON.stringify(state));
    writeFileSync(`${state.sshKey}.pub`, "ssh-ed25519 AAAAkey lab\n");
    writeFileSync(plan.leaseFile, "1795874766 52:54:00:1a:b2:01 10.201.0.87 * *\n");
    const status = await lab("status", "--dir", dir);
    expect(status.code).toBe(0);
    expect(status.out).toContain("secure-1: uefi-secure-boot, off, 52:54:00:1a:b2:01 52:54:00:1a:b2:02");
    expect(status.out).toContain("BMC: ipmi at 127.0.0.122, user admin, password pw-secure");
    expect(status.out).toContain("address: 10.201.0.87 (the site's DHCP lease)");
    expect(status.out).toContain("relay: NOT running");
    const json = JSON.parse((await lab("status", "--json", "--dir", dir)).out);
    expect(json.machines.map((machine: { name: string; address: string | null }) => [machine.name, machine.address])).toEqual([
      ["bios-1", null],
      ["uefi-1", null],
      ["secure-1", "10.201.0.87"],
    ]);
    expect(JSON.parse((await lab("obm", "secure-1", "--dir", dir)).out)).toEqual({
      service: "ipmi-obm-service",
      config: { host: "127.0.0.122", user: "admin", password: "pw-secure" },
    });
    const userData = JSON.parse((await lab("user-data", "secure-1", "--dir", dir)).out).userData;
    expect(userData).toContain("hostname: secure-1");
    expect(userData).toContain("- ssh-ed25519 AAAAkey lab");
    expect(await lab("obm", "--dir", dir)).toMatchObject({ code: 1, err: expect.stringContaining("obm needs a machine's name") });
    expect(await lab("user-data", "web-9", "--dir", dir)).toMatchObject({ code: 1, err: expect.stringContaining("no machine web-9") });
    expect(await lab("ssh", "bios-1", "--dir", dir)).toMatchObject({
      code: 1,
      err: expect.stringContaining("bios-1 has no address yet (no lease yet)"),
    });
  });
});

describe("the lab's hands on the host", () => {
  it("runs commands in its namespace and its own scripts through tsx, and says which command failed", () => {
    expect(inNamespace("lab7", ["dnsmasq", "-k"])).toEqual(["ip", "netns", "exec", "lab7", "dnsmasq", "-k"]);
    expect(tsx("lab/daemon.ts", ["api-host"])).toEqual([
      process.execPath,
      expect.stringMatching(/tsx[/\\]dist[/\\]cli\.mjs$/),
      "lab/daemon.ts",
      "api-host",
    ]);
    expect(run(["echo", "hi"])).toBe("hi\n");
    expect(() => run(["sh", "-c", "echo broken >&2; exit 3"])).toThrow("sh -c echo broken >&2; exit 3 failed: broken");
    expect(missingTools({ sh: "/bin/sh", nothing: "/nonexistent/tool" })).toEqual(["/nonexistent/tool (nothing)"]);
  });

  it("reads a process's command line and ends processes, and counts them", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    expect(commandOf(child.pid as number)).toBe("sleep 30");
    expect(await stopProcesses([child.pid as number])).toBe(1);
    await exited;
    expect(commandOf(child.pid as number)).toBe("");
    expect(commandOf(2 ** 22 + 1)).toBe("");
  });
});
