import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import {
  addNodeTags,
  createTag,
  deleteTag,
  getTag,
  listTags,
  nodeTags,
  removeNodeTag,
  runOnTagged,
  tagNodes,
} from "../../../../lib/provisioning/tags/tagService";
import { startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { aCatalog, aNode, later, memoryStores, T0 } from "./setUp";

const api = apiContextFor("http://localhost:9", "http://localhost:9");
const dellRules = [{ path: "dmi.System Information.Manufacturer", equals: "Dell" }];

describe("tagService", () => {
  const setUp = async () => {
    const stores = memoryStores();
    const dell = await aNode(stores, "dell", "52:54:00:00:00:01");
    const hp = await aNode(stores, "hp", "52:54:00:00:00:02");
    await stores.catalogs.add([
      aCatalog(dell.id, "dmi", { "System Information": { Manufacturer: "Dell" } }, "c1"),
      aCatalog(hp.id, "dmi", { "System Information": { Manufacturer: "HP" } }, "c2"),
    ]);
    return { stores, dell, hp };
  };

  it("creates a tag and gives it to every node whose catalogs its rules match, and to no other", async () => {
    const { stores, dell, hp } = await setUp();
    const tag = await createTag(stores, { name: "dell", rules: dellRules }, T0);
    expect(tag).toEqual({ id: "dell", name: "dell", rules: dellRules, createdAt: T0.toISOString(), updatedAt: T0.toISOString() });
    expect(await nodeTags(stores, dell.id)).toEqual(["dell"]);
    expect(await nodeTags(stores, hp.id)).toEqual([]);
    expect((await tagNodes(stores, "dell")).map((n) => n.id)).toEqual([dell.id]);
    expect(await listTags(stores)).toEqual([tag]);
  });

  it("answers 409 for a name taken, 400 for a missing name or bad rules, and stores nothing new", async () => {
    const { stores } = await setUp();
    await createTag(stores, { name: "dell", rules: dellRules }, T0);
    await expect(createTag(stores, { name: "dell", rules: [] }, T0)).rejects.toMatchObject({
      kind: "conflict",
      message: "tag name already exists",
    });
    await expect(createTag(stores, { rules: dellRules }, T0)).rejects.toThrow("name (string) is required");
    await expect(createTag(stores, { name: "", rules: dellRules }, T0)).rejects.toThrow("name (string) is required");
    await expect(createTag(stores, { name: "x", rules: "all" }, T0)).rejects.toMatchObject({ kind: "bad-request" });
    expect((await listTags(stores)).map((t) => t.name)).toEqual(["dell"]);
  });

  it("deletes the record only: the nodes keep the name (RackHD)", async () => {
    const { stores, dell } = await setUp();
    await createTag(stores, { name: "dell", rules: dellRules }, T0);
    await deleteTag(stores, "dell");
    await expect(getTag(stores, "dell")).rejects.toMatchObject({ kind: "not-found", message: "name dell was not found" });
    expect(await nodeTags(stores, dell.id)).toEqual(["dell"]);
    await expect(deleteTag(stores, "dell")).rejects.toMatchObject({ kind: "not-found" });
    await expect(deleteTag(stores, "x".repeat(2_000))).rejects.toMatchObject({ kind: "not-found" });
    expect(await tagNodes(stores, "x".repeat(2_000))).toEqual([]);
  });

  it("adds tags as a set, answers what was posted, and refuses a 33rd tag", async () => {
    const { stores, hp } = await setUp();
    expect(await addNodeTags(stores, hp.id, ["a", "b"], T0)).toEqual(["a", "b"]);
    expect(await addNodeTags(stores, hp.id, ["b", "c"], later(1))).toEqual(["b", "c"]);
    expect([...(await nodeTags(stores, hp.id))].sort()).toEqual(["a", "b", "c"]);
    const many = Array.from({ length: 29 }, (_, i) => `t${i}`);
    await addNodeTags(stores, hp.id, many, later(2));
    await expect(addNodeTags(stores, hp.id, ["one-too-many"], later(3))).rejects.toThrow(
      "A node carries at most 32 tags (this would make 33)",
    );
    expect(await nodeTags(stores, hp.id)).toHaveLength(32);
  });

  it("removes a tag from a node, answering its name also when the node did not have it", async () => {
    const { stores, hp } = await setUp();
    await addNodeTags(stores, hp.id, ["a", "b"], T0);
    expect(await removeNodeTag(stores, hp.id, "a", later(1))).toBe("a");
    expect(await nodeTags(stores, hp.id)).toEqual(["b"]);
    expect(await removeNodeTag(stores, hp.id, "zzz", later(2))).toBe("zzz");
    expect((await stores.nodes.get(hp.id))?.updatedAt).toBe(later(1).toISOString());
    await expect(removeNodeTag(stores, "nope", "a", T0)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("runs a graph on every tagged node, leaving out a busy one, and fails alike for a graph no one has", async () => {
    const { stores, dell, hp } = await setUp();
    await addNodeTags(stores, dell.id, ["rack1"], T0);
    await addNodeTags(stores, hp.id, ["rack1"], T0);
    await startWorkflow(stores, hp.id, { name: "Graph.Discovery", options: {} }, api, T0);
    const started = await runOnTagged(stores, "rack1", { name: "Graph.noop-example", options: {} }, api, later(1));
    expect(started.map((w) => w.node)).toEqual([dell.id]);
    await expect(runOnTagged(stores, "rack1", { name: "Graph.None", options: {} }, api, later(2))).rejects.toMatchObject({
      kind: "not-found",
    });
    expect(await runOnTagged(stores, "nobody", { name: "Graph.noop-example", options: {} }, api, later(3))).toEqual([]);
  });
});
