import { autoinstallUserData } from "../../../lib/provisioning/cloudInit/autoinstall";
import { machineFunctions, SEED_CONFIG_PATH, seedConfig } from "../../../lib/provisioning/cloudInit/seedConfig";

const FACTS = {
  seedUrl: "http://svc.example/api/current/nocloud/c1/",
  reportUrl: "http://svc.example/api/current/reports/c1",
  hostname: "web-1",
  keys: ["ssh-ed25519 AAAA one", "ssh-ed25519 AAAA two"],
};
const functions = machineFunctions(FACTS.reportUrl).join("\n");
const config = (options: Record<string, unknown>) => {
  const text = autoinstallUserData(options, FACTS);
  expect(text.startsWith("#cloud-config\n")).toBe(true);
  expect(text.endsWith("}\n")).toBe(true);
  return JSON.parse(text.slice("#cloud-config\n".length)).autoinstall;
};

describe("autoinstallUserData (Ubuntu's autoinstall config of an install task)", () => {
  it("is the whole config: identity, SSH by key only, storage, reporting, and the commands that report and seed the installed system", () => {
    expect(
      config({ users: [{ name: "ops", encryptedPassword: "$6$salt$hash" }, { name: "second" }], installDisk: "/dev/nvme0n1" }),
    ).toEqual({
      version: 1,
      identity: { hostname: "web-1", username: "ops", password: "$6$salt$hash" },
      ssh: { "install-server": true, "allow-pw": false, "authorized-keys": FACTS.keys },
      storage: { layout: { name: "direct", match: { path: "/dev/nvme0n1" } } },
      reporting: { provisioner: { type: "webhook", endpoint: FACTS.reportUrl } },
      "early-commands": [["sh", "-c", `${functions}\nreport start install '' 'The installer started'`]],
      "late-commands": [
        [
          "sh",
          "-c",
          [
            functions,
            "mkdir -p /target/etc/cloud/cloud.cfg.d",
            `printf '%s' '${seedConfig(FACTS.seedUrl)}' > /target${SEED_CONFIG_PATH}`,
            "upload_log installer /var/log/installer/subiquity-server-debug.log",
            "report finish install SUCCESS 'The installer wrote the system'",
          ].join("\n"),
        ],
      ],
      "error-commands": [
        [
          "sh",
          "-c",
          `${functions}\nupload_log installer /var/log/installer/subiquity-server-debug.log\nreport finish install FAIL 'The installer failed: see its log'`,
        ],
      ],
      shutdown: "reboot",
    });
  });

  it("falls back to the user ubuntu with the root password's hash, and the installer's own disk choice", () => {
    const fallback = config({ rootEncryptedPassword: "$6$r$root", installDisk: "" });
    expect(fallback.identity).toEqual({ hostname: "web-1", username: "ubuntu", password: "$6$r$root" });
    expect(fallback.storage).toEqual({ layout: { name: "direct" } });
    expect(config({ users: [{ name: 7 }], installDisk: 3 }).identity).toEqual({ hostname: "web-1", username: "ubuntu", password: "" });
    expect(config({ users: "ops" }).storage).toEqual({ layout: { name: "direct" } });
    expect(config({ users: [{ name: "ops", encryptedPassword: 5 }], rootEncryptedPassword: "$6$r$root" }).identity.password).toBe(
      "$6$r$root",
    );
  });
});
