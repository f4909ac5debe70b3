import { ConflictError } from "../../lib/errors";
import { type AddressAllocation, allocationId } from "../../lib/provisioning/subnets/addressStore";
import { allocateNext, claimAddress, freeAddress, TAKEN_PAGE } from "../../lib/provisioning/subnets/allocation";
import type { Subnet } from "../../lib/provisioning/subnets/subnet";
import { provisioningAdapters as adapters, type Stores } from "../support/provisioningAdapters";

jest.setTimeout(120_000);

const NOW = new Date("2026-11-28T12:00:00.000Z");

const subnetOf = (id: string, pool: [string, string], extra: Partial<Subnet> = {}): Subnet => ({
  id,
  name: id,
  cidr: "10.20.0.0/16",
  nameservers: [],
  searchDomains: [],
  ranges: [{ kind: "pool", start: pool[0], end: pool[1] }],
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
  ...extra,
});

const allocation = (subnet: string, key: string, node = "n1"): AddressAllocation => ({
  id: allocationId(subnet, key),
  subnet,
  key,
  address: key,
  node,
  interface: "eno1",
  createdAt: NOW.toISOString(),
});

describe.each(adapters)("address store and allocation (issue 54): %s", (_name, makeStores) => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await makeStores();
  });

  it("keeps an address one holder's, lists a subnet's in address order a page at a time, and reads a range's taken keys", async () => {
    for (const key of ["0a14000c", "0a14000a", "0a14000b"]) await stores.addresses.create(allocation("s1", key));
    await stores.addresses.create(allocation("s2", "0a14000a"));
    await expect(stores.addresses.create(allocation("s1", "0a14000a", "n2"))).rejects.toThrow(ConflictError);
    const first = await stores.addresses.pageOfSubnet("s1", { limit: 2 });
    expect(first.items.map((item) => item.key)).toEqual(["0a14000a", "0a14000b"]);
    expect(first.next).toBe("0a14000b");
    const second = await stores.addresses.pageOfSubnet("s1", { limit: 2, after: first.next });
    expect(second).toEqual({ items: [expect.objectContaining({ key: "0a14000c" })] });
    expect(await stores.addresses.takenKeys("s1", { from: "0a14000b", to: "0a1400ff" }, 10)).toEqual(["0a14000b", "0a14000c"]);
    expect(await stores.addresses.takenKeys("s1", { from: "0a14000a", to: "0a1400ff" }, 1)).toEqual(["0a14000a"]);
    expect(await stores.addresses.takenKeys("s3", { from: "00000000", to: "ffffffff" }, 10)).toEqual([]);
  });

  it("gives the lowest free addresses, across a page of taken keys and a freed gap, and says when the pool is full", async () => {
    const subnet = subnetOf("s1", ["10.20.0.1", `10.20.${Math.floor((TAKEN_PAGE + 2) / 256)}.${(TAKEN_PAGE + 2) % 256}`]);
    const holder = (n: number) => ({ node: `n${n}`, interface: "eno1" });
    const given: string[] = [];
    for (let n = 0; n < TAKEN_PAGE + 2; n += 1) given.push((await allocateNext(stores, subnet, holder(n), NOW)).address);
    expect(given.slice(0, 3)).toEqual(["10.20.0.1", "10.20.0.2", "10.20.0.3"]);
    expect(new Set(given).size).toBe(TAKEN_PAGE + 2);
    await expect(allocateNext(stores, subnet, holder(999), NOW)).rejects.toThrow("has no free address left in its pool");
    // A freed address is the next one given, though a whole page of taken keys lies before it.
    const freed = given[TAKEN_PAGE];
    const id = (await stores.addresses.pageOfSubnet("s1", { limit: 1000 })).items.find((item) => item.address === freed)!.id;
    await freeAddress(stores, id, "n-other");
    expect((await stores.addresses.get(id))?.address).toBe(freed);
    await freeAddress(stores, id, `n${TAKEN_PAGE}`);
    expect((await allocateNext(stores, subnet, holder(1000), NOW)).address).toBe(freed);
  });

  it("gives many requests at once distinct addresses, the lowest of the pool, and loses none", async () => {
    const subnet = subnetOf("s1", ["10.20.1.1", "10.20.1.200"]);
    const requests = 24;
    const given = await Promise.all(
      Array.from({ length: requests }, (_, n) => allocateNext(stores, subnet, { node: `n${n}`, interface: "eno1" }, NOW)),
    );
    const addresses = given.map((item) => item.address).sort((a, b) => Number(a.split(".")[3]) - Number(b.split(".")[3]));
    expect(addresses).toEqual(Array.from({ length: requests }, (_, n) => `10.20.1.${n + 1}`));
    const stored = await stores.addresses.pageOfSubnet("s1", { limit: 100 });
    expect(stored.items.map((item) => item.node).sort()).toEqual(given.map((item) => item.node).sort());
  });

  it("claims a fixed address once: the holder again is no error, another holder is a 409, a boot-range one a 400", async () => {
    const subnet = subnetOf("s1", ["10.20.0.10", "10.20.0.20"], {
      gateway: "10.20.0.1",
      ranges: [
        { kind: "pool", start: "10.20.0.10", end: "10.20.0.20" },
        { kind: "boot", start: "10.20.0.100", end: "10.20.0.199" },
      ],
    });
    const mine = await claimAddress(stores, subnet, "10.20.0.50", { node: "n1", interface: "eno1" }, NOW);
    expect(mine).toMatchObject({ address: "10.20.0.50", key: "0a140032", node: "n1" });
    expect(await claimAddress(stores, subnet, "10.20.0.50", { node: "n1", interface: "eno1" }, NOW)).toEqual(mine);
    await expect(claimAddress(stores, subnet, "10.20.0.50", { node: "n2", interface: "eno1" }, NOW)).rejects.toThrow("is node n1's (eno1)");
    await expect(claimAddress(stores, subnet, "10.20.0.150", { node: "n2", interface: "eno1" }, NOW)).rejects.toThrow(
      "in the boot range the site's DHCP hands out",
    );
    await expect(claimAddress(stores, subnet, "10.20.0.1", { node: "n2", interface: "eno1" }, NOW)).rejects.toThrow("gateway");
  });
});
