import { shellWord } from "../scriptValues";
import { machineFunctions, SEED_CONFIG_PATH, seedConfig } from "./seedConfig";

/** What the Ubuntu installer's seed is made from, beside the install task's options. */
export interface AutoinstallFacts {
  /** The node's own seed, which the installed system reads on its first boot. */
  seedUrl: string;
  reportUrl: string;
  hostname: string;
  keys: readonly string[];
  /** The node's network plan as netplan, if it has one (seedConfig.ts). */
  network?: unknown;
}

const firstUser = (options: Record<string, unknown>): { name: string; encryptedPassword?: string } | undefined => {
  const users = Array.isArray(options.users) ? options.users : [];
  const user = users[0] as { name?: unknown; encryptedPassword?: unknown } | undefined;
  return typeof user?.name === "string"
    ? { name: user.name, ...(typeof user.encryptedPassword === "string" && { encryptedPassword: user.encryptedPassword }) }
    : undefined;
};

/**
 * The autoinstall config (Ubuntu 20.04 and later, `autoinstall` on the kernel line) of an install
 * task: identity from its options (the first user, else `ubuntu` with the root password's hash),
 * SSH with the node's keys, cloud-init's webhook reporting to the service (which subiquity and
 * curtin speak), and late-commands that point the installed system's cloud-init at the node's
 * seed, then report the install finished. Written as JSON, which YAML reads as it is.
 */
export function autoinstallUserData(options: Record<string, unknown>, facts: AutoinstallFacts): string {
  const user = firstUser(options);
  const password = user?.encryptedPassword ?? String(options.rootEncryptedPassword ?? "");
  const functions = machineFunctions(facts.reportUrl).join("\n");
  const installerScript = [
    functions,
    `mkdir -p /target${SEED_CONFIG_PATH.replace(/\/[^/]+$/, "")}`,
    `printf '%s' ${shellWord(seedConfig(facts.seedUrl, facts.network))} > /target${SEED_CONFIG_PATH}`,
    "upload_log installer /var/log/installer/subiquity-server-debug.log",
    "report finish install SUCCESS 'The installer wrote the system'",
  ].join("\n");
  const config = {
    autoinstall: {
      version: 1,
      identity: { hostname: facts.hostname, username: user?.name ?? "ubuntu", password },
      ssh: { "install-server": true, "allow-pw": false, "authorized-keys": [...facts.keys] },
      ...(typeof options.installDisk === "string" && options.installDisk !== ""
        ? { storage: { layout: { name: "direct", match: { path: options.installDisk } } } }
        : { storage: { layout: { name: "direct" } } }),
      reporting: { provisioner: { type: "webhook", endpoint: facts.reportUrl } },
      "early-commands": [["sh", "-c", `${functions}\nreport start install '' 'The installer started'`]],
      "late-commands": [["sh", "-c", installerScript]],
      "error-commands": [
        [
          "sh",
          "-c",
          `${functions}\nupload_log installer /var/log/installer/subiquity-server-debug.log\nreport finish install FAIL 'The installer failed: see its log'`,
        ],
      ],
      shutdown: "reboot",
    },
  };
  return `#cloud-config\n${JSON.stringify(config, null, 2)}\n`;
}
