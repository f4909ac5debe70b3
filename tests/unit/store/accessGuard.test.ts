import fc from "fast-check";
import { allows, combine, type DataAccess, STORE_NAMES } from "../../../lib/dataAccess";
import { invocationOf, runAs } from "../../../lib/invocation";
import { guarded } from "../../../lib/store/accessGuard";

const store = {
  calls: [] as string[],
  async get(id: string) {
    this.calls.push(`get ${id}`);
    return id;
  },
  async update(id: string) {
    this.calls.push(`update ${id}`);
    return id;
  },
};
const bytes = { get: async () => "bytes", put: async () => undefined, delete: async () => undefined, uploadUrl: async () => "url" };

describe("the data access guard (least privilege, locally as on AWS)", () => {
  beforeEach(() => {
    store.calls = [];
    jest.spyOn(process.stdout, "write").mockImplementation(() => true);
  });
  afterEach(() => jest.restoreAllMocks());

  it("lets a function read what it declares reading, and refuses its writes, naming the function and the store", async () => {
    const nodes = guarded("nodes", store);
    const reader = invocationOf("getNode", { read: ["nodes"] });
    await expect(runAs(reader, () => nodes.get("n1"))).resolves.toBe("n1");
    await expect(runAs(reader, async () => nodes.update("n1"))).rejects.toThrow(
      "getNode may not write nodes (nodes.update): its registry entry does not declare it",
    );
    expect(store.calls).toEqual(["get n1"]);
    expect(String((process.stdout.write as jest.Mock).mock.calls[0][0])).toContain('"msg":"access denied","function":"getNode"');
  });

  it("lets a writer read and write, and refuses a store it does not name", async () => {
    const writer = invocationOf("patchNode", { write: ["nodes"] });
    await runAs(writer, async () => {
      await guarded("nodes", store).get("a");
      await guarded("nodes", store).update("a");
    });
    await expect(runAs(writer, async () => guarded("tags", store).get("t"))).rejects.toThrow("patchNode may not read tags");
    expect(store.calls).toEqual(["get a", "update a"]);
  });

  it("keeps the files' bytes to their level: reading, writing (put, an upload URL), deleting", async () => {
    const blobs = guarded("fileBytes", bytes);
    const reader = invocationOf("getFile", { fileBytes: "read" });
    await expect(runAs(reader, () => blobs.get())).resolves.toBe("bytes");
    await expect(runAs(reader, async () => blobs.uploadUrl())).rejects.toThrow("getFile may not write fileBytes");
    const writer = invocationOf("putFile", { fileBytes: "write" });
    await expect(runAs(writer, () => blobs.put())).resolves.toBeUndefined();
    await expect(runAs(writer, async () => blobs.delete())).rejects.toThrow("putFile may not delete fileBytes");
  });

  it("does not guard work outside any function (a test, the demo nodes' seeding), nor a store's plain fields", async () => {
    await expect(guarded("nodes", store).update("x")).resolves.toBe("x");
    expect(guarded("nodes", { size: 3 }).size).toBe(3);
  });
});

const access = fc.record(
  {
    read: fc.subarray([...STORE_NAMES]),
    write: fc.subarray([...STORE_NAMES]),
    fileBytes: fc.constantFrom("read", "write", "delete"),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<DataAccess>;
const target = fc.constantFrom(...STORE_NAMES, "fileBytes" as const);
const level = fc.constantFrom("read", "write", "delete") as fc.Arbitrary<"read" | "write" | "delete">;

describe("data access declarations", () => {
  it("combined, allow exactly what either allows", () => {
    fc.assert(
      fc.property(access, access, target, level, (a, b, where, how) => {
        expect(allows(combine(a, b), where, how)).toBe(allows(a, where, how) || allows(b, where, how));
      }),
    );
  });

  it("never list a store both read and written once combined, and combining is order-free", () => {
    fc.assert(
      fc.property(access, access, (a, b) => {
        const both = combine(a, b);
        expect((both.read ?? []).filter((name) => both.write?.includes(name))).toEqual([]);
        expect(combine(b, a)).toEqual(both);
      }),
    );
  });

  it("let a level cover the ones below it, and nothing cover a store not named", () => {
    expect(allows({ write: ["nodes"] }, "nodes", "read")).toBe(true);
    expect(allows({ read: ["nodes"] }, "nodes", "write")).toBe(false);
    expect(allows({ read: ["nodes"] }, "tags", "read")).toBe(false);
    expect(allows({ fileBytes: "write" }, "fileBytes", "read")).toBe(true);
    expect(allows({ fileBytes: "write" }, "fileBytes", "delete")).toBe(false);
    expect(allows({ fileBytes: "delete" }, "fileBytes", "delete")).toBe(true);
    expect(allows({}, "fileBytes", "read")).toBe(false);
  });
});
