import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subnet } from "../../../../lib/provisioning/subnets/subnet";

export const NOW = new Date("2026-11-28T12:00:00.000Z");

/** A subnet record as the service keeps it. */
export const aSubnet = (id: string, fields: Partial<Subnet> = {}): Subnet => ({
  id,
  name: id,
  cidr: "10.20.0.0/24",
  gateway: "10.20.0.1",
  nameservers: ["10.20.0.1"],
  searchDomains: ["lab.example"],
  ranges: [
    { kind: "pool", start: "10.20.0.10", end: "10.20.0.99" },
    { kind: "boot", start: "10.20.0.100", end: "10.20.0.199" },
  ],
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
  ...fields,
});

const CLOUD_INIT = "/usr/bin/cloud-init";

/** Every file under a directory, by its path below it. */
function filesUnder(root: string, below = ""): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of readdirSync(join(root, below))) {
    const path = join(below, name);
    if (statSync(join(root, path)).isDirectory()) Object.assign(found, filesUnder(root, path));
    else found[path] = readFileSync(join(root, path), "utf8");
  }
  return found;
}

/**
 * A network-config as cloud-init's own renderer writes it for a distribution's network stack
 * (`cloud-init devel net-convert`): the files it would write, by path. Throws with cloud-init's
 * words when it refuses the config.
 */
export function cloudInitRenders(
  networkConfig: string,
  output: "eni" | "netplan" | "sysconfig" | "network-manager",
): Record<string, string> {
  if (!existsSync(CLOUD_INIT)) throw new Error("These tests run cloud-init's renderer: apt-get install -y cloud-init (.ci/run does)");
  const dir = mkdtempSync(join(tmpdir(), "net-convert-"));
  try {
    writeFileSync(join(dir, "network-config"), networkConfig);
    const distro = output === "sysconfig" || output === "network-manager" ? "rhel" : "debian";
    execFileSync(
      CLOUD_INIT,
      ["devel", "net-convert", "-p", join(dir, "network-config"), "-k", "yaml", "-d", join(dir, "out"), "-D", distro, "-O", output],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    return filesUnder(join(dir, "out"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `cloud-init schema` of a cloud-config document: "" when valid, else cloud-init's words. */
export function cloudInitSchemaErrors(cloudConfig: string): string {
  if (!existsSync(CLOUD_INIT)) throw new Error("These tests run cloud-init's schema check: apt-get install -y cloud-init (.ci/run does)");
  const dir = mkdtempSync(join(tmpdir(), "cloud-config-"));
  try {
    writeFileSync(join(dir, "config.yaml"), cloudConfig);
    execFileSync(CLOUD_INIT, ["schema", "-c", join(dir, "config.yaml")], { stdio: ["ignore", "ignore", "pipe"] });
    return "";
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
