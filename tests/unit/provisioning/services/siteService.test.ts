import { setNodeSite } from "../../../../lib/provisioning/relays/nodeSite";
import { ONLINE_WITHIN_MS } from "../../../../lib/provisioning/relays/site";
import {
  authenticateRelay,
  createRelayCredential,
  createSite,
  deleteRelayCredential,
  deleteSite,
  getSite,
  listRelayCredentials,
  listSites,
  markQuietRelays,
} from "../../../../lib/provisioning/relays/siteService";
import { aNode, later, memoryStores, T0 } from "./setUp";

describe("siteService", () => {
  it("creates a site by a name of 1 to 64 safe characters, once per name", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "rack room 1" }, T0);
    expect(site).toMatchObject({ name: "rack room 1", createdAt: T0.toISOString(), updatedAt: T0.toISOString() });
    expect(await getSite(stores, site.id)).toEqual(site);
    await expect(createSite(stores, { name: "rack room 1" }, T0)).rejects.toMatchObject({
      kind: "conflict",
      message: "A site named rack room 1 exists",
    });
    for (const name of ["", "x".repeat(65), "a/b", 7, undefined]) {
      await expect(createSite(stores, { name }, T0)).rejects.toThrow(
        "A site's name must be 1 to 64 letters, digits, spaces, '.', ':', '_' or '-'",
      );
    }
    expect((await createSite(stores, { name: "x".repeat(64) }, T0)).name).toHaveLength(64);
    expect(await listSites(stores)).toHaveLength(2);
    await expect(getSite(stores, "nope")).rejects.toMatchObject({ kind: "not-found", message: "Could not find site nope" });
    await expect(getSite(stores, "x".repeat(2_000))).rejects.toMatchObject({ kind: "not-found" });
  });

  it("gives a relay a token once, keeps only its hash, and lets the token in until the credential is deleted", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "lab" }, T0);
    const created = await createRelayCredential(stores, site.id, {}, T0);
    expect(created).toMatchObject({ site: site.id, name: "relay", online: false });
    expect(created.token.startsWith(`${created.id}.`)).toBe(true);
    const stored = await stores.relayCredentials.get(created.id);
    expect(JSON.stringify(stored)).not.toContain(created.token.split(".")[1]);
    const [listed] = await listRelayCredentials(stores, site.id, T0);
    expect(listed).not.toHaveProperty("token");
    expect(listed).not.toHaveProperty("secretSha256");
    expect((await authenticateRelay(stores, `Bearer ${created.token}`, "1.2.3", T0)).id).toBe(created.id);
    await deleteRelayCredential(stores, site.id, created.id, later(1));
    await expect(authenticateRelay(stores, `Bearer ${created.token}`, "1.2.3", later(2))).rejects.toMatchObject({ kind: "unauthorized" });
    await expect(createRelayCredential(stores, site.id, { name: "a/b" }, T0)).rejects.toThrow(/^A relay's name must be/);
    await expect(createRelayCredential(stores, "nope", {}, T0)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("refuses a wrong secret, another scheme, or no header, saying no more than that", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "lab" }, T0);
    const { id, token } = await createRelayCredential(stores, site.id, { name: "a" }, T0);
    const refusals = [undefined, "", `Basic ${token}`, `Bearer ${id}.wrong`, `Bearer ${token} extra`, "Bearer nope"];
    for (const header of refusals) {
      await expect(authenticateRelay(stores, header, undefined, T0)).rejects.toThrow(
        "A relay credential is required: Authorization: Bearer <token>",
      );
    }
  });

  it("notes when a relay was last seen and its version, at most every 30 s unless its version changes; online for a minute", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "lab" }, T0);
    const { id, token } = await createRelayCredential(stores, site.id, {}, T0);
    await authenticateRelay(stores, `Bearer ${token}`, "1.0.0", T0);
    await authenticateRelay(stores, `Bearer ${token}`, "1.0.0", later(29_999));
    expect((await stores.relayCredentials.get(id))?.lastSeenAt).toBe(T0.toISOString());
    await authenticateRelay(stores, `Bearer ${token}`, "1.1.0", later(30_000 - 2));
    expect(await stores.relayCredentials.get(id)).toMatchObject({ lastSeenAt: later(29_998).toISOString(), relayVersion: "1.1.0" });
    await authenticateRelay(stores, `Bearer ${token}`, "1.1.0", later(60_000));
    expect((await stores.relayCredentials.get(id))?.lastSeenAt).toBe(later(60_000).toISOString());
    const [view] = await listRelayCredentials(stores, site.id, later(60_000 + ONLINE_WITHIN_MS - 1));
    expect(view.online).toBe(true);
    const [gone] = await listRelayCredentials(stores, site.id, later(60_000 + ONLINE_WITHIN_MS));
    expect(gone.online).toBe(false);
  });

  it("deletes a site only once no credential names it and no node belongs to it", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "lab" }, T0);
    const other = await createSite(stores, { name: "other" }, T0);
    const { id } = await createRelayCredential(stores, site.id, {}, T0);
    const node = await aNode(stores);
    await setNodeSite(stores, node.id, site.id, T0);
    await expect(deleteSite(stores, site.id)).rejects.toThrow(`Site ${site.id} still has relay credentials: delete them first`);
    await expect(deleteRelayCredential(stores, other.id, id, T0)).rejects.toMatchObject({ kind: "not-found" });
    await deleteRelayCredential(stores, site.id, id, T0);
    await expect(deleteSite(stores, site.id)).rejects.toThrow(`Nodes still belong to site ${site.id}`);
    await setNodeSite(stores, node.id, null, T0);
    expect(await deleteSite(stores, site.id)).toEqual(site);
    await expect(getSite(stores, site.id)).rejects.toMatchObject({ kind: "not-found" });
    await expect(deleteRelayCredential(stores, site.id, "x".repeat(2_000), T0)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("marks a relay gone quiet as lost once (relay.lost), and connected again when it is heard from (relay.connected)", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "lab" }, T0);
    const { token, id } = await createRelayCredential(stores, site.id, { name: "relay-a" }, T0);
    await createRelayCredential(stores, site.id, { name: "never-seen" }, T0);
    await authenticateRelay(stores, `Bearer ${token}`, "1.0", T0);
    expect(await markQuietRelays(stores, later(ONLINE_WITHIN_MS - 1))).toBe(0);
    expect(await markQuietRelays(stores, later(ONLINE_WITHIN_MS))).toBe(1);
    expect(await markQuietRelays(stores, later(ONLINE_WITHIN_MS + 60_000))).toBe(0);
    await authenticateRelay(stores, `Bearer ${token}`, "1.0", later(3 * ONLINE_WITHIN_MS));
    const events = await stores.events.list(`relay:${id}`);
    expect(events.map((event) => `${event.type}.${event.action}`)).toEqual(["relay.connected", "relay.lost", "relay.connected"]);
    expect((await listRelayCredentials(stores, site.id, later(3 * ONLINE_WITHIN_MS)))[0]).not.toHaveProperty("lostAt");
  });
});
