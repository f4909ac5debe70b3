import type { RelayConnection } from "../../lib/provisioning/relays/relayConnection";
import { provisioningAdapters as adapters, type Stores } from "../support/provisioningAdapters";

jest.setTimeout(120_000);

const T0 = new Date("2026-11-28T10:00:00.000Z");
const connection = (id: string, site: string, relay = "r1"): RelayConnection => ({
  id,
  site,
  relay,
  connectedAt: T0.toISOString(),
  expiresAt: new Date(T0.getTime() + 7_500_000).toISOString(),
});

/** The relays' push connections (issue 56) in both stores: by id, by site through the index, replaced, forgotten. */
describe.each(adapters)("relay connections: %s", (_name, makeStores) => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await makeStores();
  });

  it("keeps a connection by id, answers a site's through its index, replaces and forgets", async () => {
    await stores.relayConnections.add(connection("AbCdEf0123456=", "s1"));
    await stores.relayConnections.add(connection("c2", "s1", "r2"));
    await stores.relayConnections.add(connection("c3", "s2"));
    expect(await stores.relayConnections.get("AbCdEf0123456=")).toEqual(connection("AbCdEf0123456=", "s1"));
    expect((await stores.relayConnections.idsOfSite("s1", T0)).sort()).toEqual(["AbCdEf0123456=", "c2"]);
    await stores.relayConnections.add(connection("c2", "s2", "r2"));
    expect(await stores.relayConnections.idsOfSite("s1", T0)).toEqual(["AbCdEf0123456="]);
    expect((await stores.relayConnections.idsOfSite("s2", T0)).sort()).toEqual(["c2", "c3"]);
    await stores.relayConnections.delete("c3");
    await stores.relayConnections.delete("c3");
    expect(await stores.relayConnections.get("c3")).toBeUndefined();
    expect(await stores.relayConnections.idsOfSite("s2", T0)).toEqual(["c2"]);
  });
});
