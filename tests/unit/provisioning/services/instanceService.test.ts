import fc from "fast-check";
import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { issueInstanceCredential, setUserData, userDataStatus } from "../../../../lib/provisioning/cloudInit/instanceService";
import { addressScript, seedDocument as seedAt, VENDOR_DATA_BOUNDARY } from "../../../../lib/provisioning/cloudInit/seedService";
import { ADDRESS_LIMITS } from "../../../../lib/provisioning/installReports/reportedAddresses";
import { deleteNode } from "../../../../lib/provisioning/lifecycle/deleteNode";
import { aNode, later, memoryStores, T0 } from "./setUp";

const API = apiContextFor("http://svc.example");
const seedDocument = (stores: Parameters<typeof seedAt>[0], credential: string, path: string) => seedAt(stores, credential, path, API, T0);

describe("instance credentials and cloud-init's NoCloud seed", () => {
  it("shows a credential once, URL-safe, with the seed URL cloud-init appends its documents to; keeps only its hash", async () => {
    const stores = memoryStores();
    const node = await aNode(stores, "Web 01");
    const issued = await issueInstanceCredential(stores, node.id, API, T0);
    expect(issued.credential).toMatch(new RegExp(`^${node.id}\\.[\\w-]{43}$`));
    expect(issued.credential).not.toMatch(/[;%&/]/);
    expect(issued.seedUrl).toBe(`http://svc.example/api/current/nocloud/${issued.credential}/`);
    expect(issued.instanceId).toMatch(/^i-[0-9a-f]{16}$/);
    const kept = JSON.stringify(await stores.instances.get(node.id));
    expect(kept).not.toContain(issued.credential.split(".")[1]);
  });

  it("serves meta-data with the instance id and a host name, user-data (an empty #cloud-config when none), vendor-data, network-config", async () => {
    const stores = memoryStores();
    const node = await aNode(stores, "Web 01.rack_2");
    const { credential, instanceId } = await issueInstanceCredential(stores, node.id, API, T0);
    expect(await seedDocument(stores, credential, "meta-data")).toBe(
      `instance-id: "${instanceId}"\nlocal-hostname: "web-01-rack-2"\npublic-keys: []\n`,
    );
    expect(await seedDocument(stores, credential, "user-data")).toBe("#cloud-config\n{}\n");
    const vendor = await seedDocument(stores, credential, "vendor-data");
    const reportUrl = `http://svc.example/api/current/reports/${credential}`;
    // Two parts: the reporting config, and the script that reports the installed system's addresses (issue 50).
    const parts = vendor.split(`--${VENDOR_DATA_BOUNDARY}`);
    expect(parts[0]).toBe(`Content-Type: multipart/mixed; boundary="${VENDOR_DATA_BOUNDARY}"\nMIME-Version: 1.0\n\n`);
    expect(parts[1]).toBe(
      `\nContent-Type: text/cloud-config; charset="utf-8"\n\n#cloud-config\n${JSON.stringify({ reporting: { provisioner: { type: "webhook", endpoint: reportUrl } }, manage_etc_hosts: true }, null, 2)}\n`,
    );
    expect(parts[2]).toBe(`\nContent-Type: text/x-shellscript; charset="utf-8"\n\n${addressScript(reportUrl)}\n`);
    expect(parts[3]).toBe("--\n");
    expect(addressScript(reportUrl)).toContain(`ENDPOINT = "${reportUrl}"`);
    expect(addressScript(reportUrl)).toContain(`nics[:${ADDRESS_LIMITS.nics}]`);
    expect(addressScript(reportUrl)).toContain(`found[:${ADDRESS_LIMITS.addressesPerNic}]`);
    expect(JSON.parse(await seedDocument(stores, credential, "network-config"))).toEqual({
      version: 2,
      ethernets: { nic0: { match: { macaddress: "52:54:00:00:00:01" }, "set-name": "nic0", dhcp4: true } },
    });
    await setUserData(stores, node.id, "#cloud-config\nhostname: web-1\n", later(1));
    expect(await seedDocument(stores, credential, "user-data")).toBe("#cloud-config\nhostname: web-1\n");
  });

  it("ends the old credential at each new one; keeps the instance id unless it is a reinstall", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const first = await issueInstanceCredential(stores, node.id, API, T0);
    const rotated = await issueInstanceCredential(stores, node.id, API, later(1));
    expect(rotated.instanceId).toBe(first.instanceId);
    await expect(seedDocument(stores, first.credential, "meta-data")).rejects.toMatchObject({ kind: "not-found" });
    expect(await seedDocument(stores, rotated.credential, "meta-data")).toContain(first.instanceId);
    const reinstalled = await issueInstanceCredential(stores, node.id, API, later(2), true);
    expect(reinstalled.instanceId).not.toBe(first.instanceId);
  });

  it("refuses any other credential with the same 404, whatever it looks like (no oracle)", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const { credential } = await issueInstanceCredential(stores, node.id, API, T0);
    const [id, secret] = credential.split(".");
    const other = await aNode(stores, "n2", "52:54:00:00:00:02");
    const wrong = [`${id}.${"A".repeat(43)}`, `${other.id}.${secret}`, `${id}.${secret.slice(1)}`, "", credential.toUpperCase()];
    for (const token of wrong) await expect(seedDocument(stores, token, "meta-data")).rejects.toThrow("No such seed");
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), async (token) => {
        fc.pre(token !== credential);
        await expect(seedDocument(stores, token, "user-data")).rejects.toThrow("No such seed");
      }),
      { numRuns: 200 },
    );
  });

  it("keeps user-data write-only for operators (set, size, hash), at most 64 KiB, and removes it with null", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    expect(await userDataStatus(stores, node.id)).toEqual({ set: false, bytes: 0 });
    const status = await setUserData(stores, node.id, "#cloud-config\npassword: s3cret\n", later(1));
    expect(status).toEqual({ set: true, bytes: 31, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), updatedAt: later(1).toISOString() });
    expect(JSON.stringify(await userDataStatus(stores, node.id))).not.toContain("s3cret");
    await expect(setUserData(stores, node.id, "x".repeat(64 * 1024 + 1), later(2))).rejects.toMatchObject({ kind: "bad-request" });
    expect(await setUserData(stores, node.id, null, later(3))).toEqual({ set: false, bytes: 0 });
    await expect(setUserData(stores, "no-such-node", "#cloud-config\n", later(4))).rejects.toMatchObject({ kind: "not-found" });
  });

  it("goes with its node: a deleted node's credential names nothing", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const { credential } = await issueInstanceCredential(stores, node.id, API, T0);
    await deleteNode(stores, node.id, later(1));
    expect(await stores.instances.get(node.id)).toBeUndefined();
    await expect(seedDocument(stores, credential, "meta-data")).rejects.toThrow("No such seed");
  });
});
