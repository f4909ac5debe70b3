import { ValidationError } from "../../../lib/errors";
import { buildNode, parseNewNode, parseNodePatch } from "../../../lib/provisioning/nodes/node";

describe("parseNewNode", () => {
  it("requires a name and keeps extra keys", () => {
    const input = parseNewNode({ name: "n1", profile: "diskboot.ipxe", identifiers: ["00:1E:67:98:BC:7E", "serial-1"] });
    expect(input.fields).toEqual({ name: "n1", profile: "diskboot.ipxe", identifiers: ["00:1e:67:98:bc:7e", "serial-1"] });
  });

  it("takes a client-supplied 24-hex id", () => {
    expect(parseNewNode({ name: "n", id: "1234abcd1234abcd1234abcd" }).id).toBe("1234abcd1234abcd1234abcd");
  });

  it("accepts the strings RackHD's clients send for autoDiscover", () => {
    expect(parseNewNode({ name: "n", autoDiscover: "false" }).fields.autoDiscover).toBe(false);
    expect(parseNewNode({ name: "n", autoDiscover: "true" }).fields.autoDiscover).toBe(true);
  });

  it("ignores server-owned keys", () => {
    expect(parseNewNode({ name: "n", createdAt: "x", updatedAt: "y", workflows: [1], catalogs: [2] }).fields).toEqual({ name: "n" });
  });

  it("drops an empty key, keeps each tag once, and takes an empty OBM list as no settings", () => {
    expect(parseNewNode({ name: "n", "": 1, tags: ["a", "b", "a"], obmSettings: [] } as never).fields).toEqual({
      name: "n",
      tags: ["a", "b"],
      obmSettings: [],
    });
  });

  it("refuses an unknown OBM service (the schema checks shapes, the domain the library)", () => {
    expect(() => parseNewNode({ name: "n", obmSettings: [{ service: "nope-obm-service", config: {} }] })).toThrow(
      new ValidationError("Unknown OBM service nope-obm-service"),
    );
  });
});

describe("parseNodePatch", () => {
  it("accepts any subset, including a whole node echoed back", () => {
    expect(parseNodePatch({ status: "available" })).toEqual({ status: "available" });
    const node = buildNode(parseNewNode({ name: "n" }), "1234abcd1234abcd1234abcd", new Date("2026-01-01T00:00:00Z"));
    const echo = { ...node, workflows: [], catalogs: [], terraform: true };
    expect(parseNodePatch(echo)).toMatchObject({ name: "n", terraform: true });
    expect(parseNodePatch(echo)).not.toHaveProperty("id");
  });
});

describe("buildNode", () => {
  it("fills RackHD's defaults, starts the node's life as discovered, and stamps both times", () => {
    expect(buildNode(parseNewNode({ name: "n" }), "1234abcd1234abcd1234abcd", new Date("2026-01-01T00:00:00.000Z"))).toEqual({
      id: "1234abcd1234abcd1234abcd",
      name: "n",
      identifiers: [],
      type: "compute",
      obmSettings: [],
      autoDiscover: false,
      sku: null,
      relations: [],
      tags: [],
      provisionState: "discovered",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    });
  });

  it("keeps a client from setting the provision state or its record (only actions move them)", () => {
    const patch = parseNodePatch({ provisionState: "deployed", provisioning: { owner: "me" }, name: "x" } as never);
    expect(patch).toEqual({ name: "x" });
  });
});
