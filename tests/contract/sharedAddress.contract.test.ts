import { apiContextFor } from "../../lib/provisioning/apiContext";
import { bootProfile } from "../../lib/provisioning/boot/bootService";
import { provisioningAdapters, type Stores } from "../support/provisioningAdapters";

const api = apiContextFor("http://x");
const SITE_ADDRESS = "192.0.2.10";
const MACHINES = 16;
const ROUNDS = 20;
jest.setTimeout(120_000);

/**
 * Issue 22 §1: new machines behind one NAT, proxy or relay boot together, so their first boots
 * come from one source address at once. Each boot must be answered; the address names the
 * machine that used it last.
 */
describe.each(provisioningAdapters)("first boots from one address: %s", (_name, makeStores) => {
  let stores: Stores;
  beforeAll(async () => {
    stores = await makeStores();
  });

  it(`boots ${MACHINES} new machines at once from one address, ${ROUNDS} times over`, async () => {
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const macs = Array.from(
        { length: MACHINES },
        (_, i) => `52:54:01:00:${round.toString(16).padStart(2, "0")}:${i.toString(16).padStart(2, "0")}`,
      );
      const outcomes = await Promise.allSettled(
        macs.map((mac) => bootProfile(stores, [mac], SITE_ADDRESS, api, new Date(), { graph: undefined })),
      );
      for (const outcome of outcomes) if (outcome.status === "rejected") failures.push(String(outcome.reason));
      const holder = await stores.lookups.byIp(SITE_ADDRESS);
      expect(holder).toBeDefined();
    }
    expect(failures).toEqual([]);
    // Every machine is known by its MAC; the address is in one lookup only.
    const lookups = await stores.lookups.list();
    expect(lookups).toHaveLength(MACHINES * ROUNDS);
    expect(lookups.filter((lookup) => lookup.ipAddress === SITE_ADDRESS)).toHaveLength(1);
  });
});
