import { changeConfigRecord, patchServiceConfig, serviceConfig } from "../../../../lib/provisioning/config/serviceConfig";
import { addToWhitelist, removeFromWhitelist } from "../../../../lib/provisioning/lookups/whitelist";
import { RECORD_MAX_BYTES } from "../../../../lib/provisioning/recordSize";
import { later, memoryStores, T0 } from "./setUp";

const deployment = { apiServerPort: 443, amqp: "amqp://user:secret@mq" };

describe("the service's config and the DHCP whitelist", () => {
  it("answers the deployment's keys and those set at run time, secrets redacted", async () => {
    const stores = memoryStores();
    const config = await patchServiceConfig(stores, deployment, { httpProxy: "http://proxy", password: "p" }, T0);
    expect(config).toMatchObject({ apiServerPort: 443, httpProxy: "http://proxy" });
    expect(JSON.stringify(config)).not.toContain("secret");
    expect(config.password).not.toBe("p");
    expect(await serviceConfig(stores, deployment)).toEqual(config);
  });

  it("takes back a deployment key with the value it answers, refuses to change one, and ignores prototype keys", async () => {
    const stores = memoryStores();
    const answered = await serviceConfig(stores, deployment);
    await expect(patchServiceConfig(stores, deployment, { ...answered, extra: 1 }, T0)).resolves.toMatchObject({ extra: 1 });
    await expect(patchServiceConfig(stores, deployment, { apiServerPort: 80 }, T0)).rejects.toThrow(
      "apiServerPort is set by the deployment (its environment) and cannot change at run time",
    );
    const polluted = JSON.parse('{"__proto__": {"admin": true}, "constructor": 1}');
    const config = await patchServiceConfig(stores, deployment, polluted, later(1));
    expect(Object.hasOwn(config, "constructor")).toBe(false);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("stores nothing for a patch that changes nothing, and refuses one too large to store, naming the config", async () => {
    const stores = memoryStores();
    await patchServiceConfig(stores, deployment, await serviceConfig(stores, deployment), T0);
    expect(await stores.config.get("runtime")).toBeUndefined();
    await expect(patchServiceConfig(stores, deployment, { big: "x".repeat(RECORD_MAX_BYTES) }, T0)).rejects.toMatchObject({
      kind: "payload-too-large",
      message: expect.stringMatching(/^The config would take/),
    });
  });

  it("keeps a config record as it was when a change leaves its values as they are", async () => {
    const stores = memoryStores();
    const made = await changeConfigRecord(stores, "runtime", (values) => ({ ...values, a: 1 }), T0);
    const unchanged = await changeConfigRecord(stores, "runtime", (values) => values, later(5));
    expect(unchanged).toEqual(made);
    expect(unchanged.updatedAt).toBe(T0.toISOString());
  });

  it("holds at most 4,096 MACs in the whitelist, refusing the next one and storing nothing", async () => {
    const stores = memoryStores();
    const full = Array.from(
      { length: 4096 },
      (_, i) => `52:54:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`,
    );
    await changeConfigRecord(stores, "dhcp-whitelist", () => ({ macs: full.map((mac) => mac.replace(/:/g, "-")) }), T0);
    await expect(addToWhitelist(stores, "52:54:00:99:00:01", later(1))).rejects.toMatchObject({
      kind: "bad-request",
      message: "The DHCP whitelist holds at most 4096 MACs",
    });
    await removeFromWhitelist(stores, full[0], later(2));
    expect(await addToWhitelist(stores, "52:54:00:99:00:01", later(3))).toHaveLength(4096);
  });

  it("keeps the whitelist in RackHD's form, each MAC once, and removing one not there is no error", async () => {
    const stores = memoryStores();
    expect(await addToWhitelist(stores, "52:54:00:AA:BB:CC", T0)).toEqual(["52-54-00-aa-bb-cc"]);
    expect(await addToWhitelist(stores, "52-54-00-aa-bb-cc", T0)).toEqual(["52-54-00-aa-bb-cc"]);
    expect(await addToWhitelist(stores, "52:54:00:00:00:01", T0)).toHaveLength(2);
    await removeFromWhitelist(stores, "52:54:00:aa:bb:cc", later(1));
    await removeFromWhitelist(stores, "52:54:00:aa:bb:cc", later(2));
    expect(await addToWhitelist(stores, "52:54:00:00:00:01", later(3))).toEqual(["52-54-00-00-00-01"]);
    await expect(addToWhitelist(stores, "nope", T0)).rejects.toThrow("Invalid MAC address: nope");
    await expect(removeFromWhitelist(stores, "nope", T0)).rejects.toMatchObject({ kind: "bad-request" });
  });
});
