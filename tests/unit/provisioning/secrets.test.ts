import { keepRedactedSecrets, REDACTED, redact } from "../../../lib/provisioning/secrets";
import { effectSecrets } from "../../../lib/provisioning/workflowEngine/sealSecrets";

describe("redact", () => {
  it("hides password, community and any key containing password, at any depth", () => {
    expect(
      redact({
        obmSettings: [{ service: "ipmi-obm-service", config: { host: "h", user: "u", password: "p" } }],
        snmpSettings: { host: "s", community: "c" },
        extra: { rootPassword: "r", cyclePassword: "y", PASSWORD: "z", nested: [{ userPassword: "q" }] },
        keep: "password is fine as a value",
      }),
    ).toEqual({
      obmSettings: [{ service: "ipmi-obm-service", config: { host: "h", user: "u", password: REDACTED } }],
      snmpSettings: { host: "s", community: REDACTED },
      extra: { rootPassword: REDACTED, cyclePassword: REDACTED, PASSWORD: REDACTED, nested: [{ userPassword: REDACTED }] },
      keep: "password is fine as a value",
    });
  });

  it("leaves null secrets null and does not change its input", () => {
    const input = { password: null, config: { password: "x" } };
    expect(redact(input)).toEqual({ password: null, config: { password: REDACTED } });
    expect(input.config.password).toBe("x");
  });
});

describe("a URL's password", () => {
  it("is redacted under any key, at any depth, and nothing else in the URL is", () => {
    expect(redact({ amqp: "amqp://user:s3cret@mq:5672/vhost", repos: ["http://me:pw@mirror/centos?x=1"] })).toEqual({
      amqp: "amqp://user:REDACTED@mq:5672/vhost",
      repos: ["http://me:REDACTED@mirror/centos?x=1"],
    });
    for (const plain of ["http://mirror/centos", "http://user@mirror/", "mailto:a@b", "user:pw@host", "http://mirror/a:b@c"]) {
      expect(redact(plain)).toBe(plain);
    }
  });

  it("echoed back redacted, keeps the stored password; a URL changed otherwise is stored as sent", () => {
    const stored = { repo: "http://me:pw@mirror/centos" };
    expect(keepRedactedSecrets({ repo: "http://me:REDACTED@mirror/centos" }, stored)).toEqual(stored);
    expect(keepRedactedSecrets({ repo: "http://me:REDACTED@other/centos" }, stored)).toEqual({ repo: "http://me:REDACTED@other/centos" });
    expect(keepRedactedSecrets({ repo: "http://me:new@mirror/centos" }, stored)).toEqual({ repo: "http://me:new@mirror/centos" });
  });
});

describe("keepRedactedSecrets", () => {
  it("keeps the stored secret where an echo sends REDACTED", () => {
    expect(keepRedactedSecrets({ host: "new", password: REDACTED }, { host: "old", password: "secret" })).toEqual({
      host: "new",
      password: "secret",
    });
    expect(keepRedactedSecrets({ snmp: { community: REDACTED } }, { snmp: { community: "public" } })).toEqual({
      snmp: { community: "public" },
    });
  });

  it("stores a new secret as sent, and REDACTED literally when nothing was stored", () => {
    expect(keepRedactedSecrets({ password: "new" }, { password: "old" })).toEqual({ password: "new" });
    expect(keepRedactedSecrets({ password: REDACTED }, {})).toEqual({ password: REDACTED });
  });
});

describe("effectSecrets: the plain secrets an effect task writes where they are needed", () => {
  it("keeps create-obm-settings' top-level secrets as text, and nothing else", () => {
    const options = { user: "admin", password: "Bmc-Pa55", sharedKey: 1234, community: REDACTED, nested: { password: "x" } };
    expect(effectSecrets("Job.Obm.Ipmi.CreateSettings", options)).toEqual({ password: "Bmc-Pa55", sharedKey: "1234" });
    expect(effectSecrets("Job.Obm.Ipmi.CreateSettings", { user: "admin", password: REDACTED })).toBeUndefined();
    expect(effectSecrets("Job.Catalog.GenerateSku", { password: "Bmc-Pa55" })).toBeUndefined();
  });
});
