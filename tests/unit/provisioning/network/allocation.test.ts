import { ConflictError } from "../../../../lib/errors";
import { allocationId } from "../../../../lib/provisioning/subnets/addressStore";
import { allocateNext, CLAIM_ATTEMPTS, claimAddress, TAKEN_PAGE } from "../../../../lib/provisioning/subnets/allocation";
import { dynamoProvisioningStores } from "../../../../lib/store/dynamodb/provisioningStores";
import { fakeTable } from "../../../support/fakeDocumentClient";
import { memoryStores, replacing, type Stores } from "../services/setUp";
import { aSubnet, NOW } from "./support";

/**
 * Allocation's rules in the unit tier, on the memory store and on the DynamoDB adapter over the
 * fake table (the contract tier runs the same against DynamoDB Local, and many writers at once):
 * the lowest free address past a page of taken keys, another writer's claim met and passed, the
 * limit of such losses, and a fixed address's race.
 */
const STORES: [string, () => Stores][] = [
  ["memory", memoryStores],
  ["dynamodb adapter, fake table", () => dynamoProvisioningStores(fakeTable().client, "t", () => ({}) as never) as Stores],
];

const holder = (n: number | string) => ({ node: `n${n}`, interface: "eno1" });

describe.each(STORES)("allocation (issue 54): %s", (_name, make) => {
  it("passes a whole page of taken keys to the first gap after it, then says when the pool is full", async () => {
    const stores = make();
    const subnet = aSubnet("s", {
      cidr: "10.20.0.0/22",
      gateway: undefined,
      ranges: [{ kind: "pool", start: "10.20.0.1", end: `10.20.1.${TAKEN_PAGE + 2 - 256}` }],
    });
    const given: string[] = [];
    for (let n = 0; n < TAKEN_PAGE + 2; n += 1) given.push((await allocateNext(stores, subnet, holder(n), NOW)).address);
    expect(given.at(-1)).toBe(`10.20.1.${TAKEN_PAGE + 2 - 256}`);
    expect(new Set(given).size).toBe(TAKEN_PAGE + 2);
    await expect(allocateNext(stores, subnet, holder("x"), NOW)).rejects.toThrow(ConflictError);
    const page = await stores.addresses.pageOfSubnet("s", { limit: 3 });
    expect(page.items.map((item) => item.address)).toEqual(["10.20.0.1", "10.20.0.2", "10.20.0.3"]);
  });

  it("takes the next address when another writer claimed the one it chose, and gives up with a 503 after too many", async () => {
    const stores = make();
    const subnet = aSubnet("s");
    let lost = 0;
    const racing = replacing(stores, "addresses", {
      create: async (record: { id: string }) => {
        if (lost < 2) {
          lost += 1;
          throw new ConflictError(`${record.id} already exists`);
        }
        return stores.addresses.create(record as never);
      },
    });
    expect((await allocateNext(racing, subnet, holder(1), NOW)).address).toBe("10.20.0.12");
    const always = replacing(stores, "addresses", {
      create: async (record: { id: string }) => {
        throw new ConflictError(`${record.id} already exists`);
      },
    });
    await expect(allocateNext(always, subnet, holder(2), NOW)).rejects.toMatchObject({ kind: "unavailable", retryAfterSeconds: 1 });
    expect(CLAIM_ATTEMPTS).toBe(64);
    // Any other failure of the store goes on as it is.
    const broken = replacing(stores, "addresses", { create: async () => Promise.reject(new Error("store down")) });
    await expect(allocateNext(broken, subnet, holder(3), NOW)).rejects.toThrow("store down");
  });

  it("claims a fixed address: a claim raced by another holder is a 409 that says so", async () => {
    const stores = make();
    const subnet = aSubnet("s");
    const raced = replacing(stores, "addresses", {
      create: async (record: { id: string }) => Promise.reject(new ConflictError(`${record.id} already exists`)),
    });
    await expect(claimAddress(raced, subnet, "10.20.0.40", holder(1), NOW)).rejects.toThrow(
      "10.20.0.40 of subnet s was taken by another node as this request claimed it",
    );
    const broken = replacing(stores, "addresses", { create: async () => Promise.reject(new Error("store down")) });
    await expect(claimAddress(broken, subnet, "10.20.0.40", holder(1), NOW)).rejects.toThrow("store down");
    expect(await stores.addresses.get(allocationId("s", "0a140028"))).toBeUndefined();
  });
});
