import type { RelayConnection } from "../../../lib/provisioning/relays/relayConnection";
import { dynamoProvisioningStores } from "../../../lib/store/dynamodb/provisioningStores";
import { MemoryRelayConnectionStore } from "../../../lib/store/memory/recordStore";
import { fakeTable } from "../../support/fakeDocumentClient";

/**
 * The relays' connections store (issue 56) in the unit tier: the memory adapter and the DynamoDB
 * adapter over the fake table (the contract tier runs the same against DynamoDB Local).
 */
const T0 = new Date("2026-11-28T10:00:00.000Z");
const connection = (id: string, site: string, relay = "r1", expiresInMs = 3_600_000): RelayConnection => ({
  id,
  site,
  relay,
  connectedAt: T0.toISOString(),
  expiresAt: new Date(T0.getTime() + expiresInMs).toISOString(),
});

describe.each([
  ["memory", () => new MemoryRelayConnectionStore({ capacity: 100, maxBytes: 1 << 20 })],
  ["dynamodb adapter, fake table", () => dynamoProvisioningStores(fakeTable().client, "t", () => ({}) as never).relayConnections],
])("relay connections (%s)", (_name, make) => {
  it("keeps a connection by id and answers a site's ids, no other site's", async () => {
    const store = make();
    await store.add(connection("c1", "s1"));
    await store.add(connection("c2", "s1", "r2"));
    await store.add(connection("c3", "s2"));
    expect(await store.get("c2")).toEqual(connection("c2", "s1", "r2"));
    expect((await store.idsOfSite("s1", T0)).sort()).toEqual(["c1", "c2"]);
    expect(await store.idsOfSite("s2", T0)).toEqual(["c3"]);
    expect(await store.idsOfSite("s3", T0)).toEqual([]);
  });

  it("replaces a connection kept again under its id, and forgets one deleted (twice is harmless)", async () => {
    const store = make();
    await store.add(connection("c1", "s1"));
    await store.add(connection("c1", "s1", "r9"));
    expect(await store.get("c1")).toEqual(connection("c1", "s1", "r9"));
    await store.delete("c1");
    await store.delete("c1");
    expect(await store.get("c1")).toBeUndefined();
    expect(await store.idsOfSite("s1", T0)).toEqual([]);
  });
});

describe("relay connections in memory", () => {
  it("leaves an expired connection out of a site's and forgets it, as DynamoDB's TTL does", async () => {
    const store = new MemoryRelayConnectionStore({ capacity: 100, maxBytes: 1 << 20 });
    await store.add(connection("old", "s1", "r1", 1_000));
    await store.add(connection("new", "s1", "r1", 5_000));
    expect(await store.idsOfSite("s1", new Date(T0.getTime() + 1_000))).toEqual(["new"]);
    expect(await store.get("old")).toBeUndefined();
  });
});
