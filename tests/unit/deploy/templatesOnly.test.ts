import { EMPTY_ZIP, templatesOnly, withPlaceholderArtifacts } from "../../../lib/deploy/templatesOnly";

describe("packaging the templates only (PACKAGE_TEMPLATES_ONLY)", () => {
  it("reads the setting: on is true, unset, empty or off is false, anything else is refused naming it", () => {
    expect(templatesOnly({})).toBe(false);
    expect(templatesOnly({ PACKAGE_TEMPLATES_ONLY: " " })).toBe(false);
    expect(templatesOnly({ PACKAGE_TEMPLATES_ONLY: "off" })).toBe(false);
    expect(templatesOnly({ PACKAGE_TEMPLATES_ONLY: " on " })).toBe(true);
    for (const bad of ["yes", "ON", "1"])
      expect(() => templatesOnly({ PACKAGE_TEMPLATES_ONLY: bad })).toThrow(`PACKAGE_TEMPLATES_ONLY must be one of on, off (got "${bad}")`);
  });

  it("gives every function the placeholder as its artifact and no build, keeping the rest of its definition", () => {
    // Arrange
    const functions = { listNodes: { handler: "handlers/provisioning/nodes/list.handler", timeout: 10 }, other: { handler: "h.handler" } };
    // Act
    const placed = withPlaceholderArtifacts(functions, "/w/.serverless/templates-only.zip");
    // Assert
    expect(placed).toEqual({
      listNodes: { ...functions.listNodes, skipEsbuild: true, package: { artifact: "/w/.serverless/templates-only.zip" } },
      other: { ...functions.other, skipEsbuild: true, package: { artifact: "/w/.serverless/templates-only.zip" } },
    });
  });

  it("makes the placeholder a zip archive with no entry (an end-of-central-directory record only)", () => {
    expect(EMPTY_ZIP).toHaveLength(22);
    expect(EMPTY_ZIP.readUInt32LE(0)).toBe(0x06054b50);
    // Entries on this disk, entries in all, directory size and offset, comment length: all zero.
    expect([8, 10].map((at) => EMPTY_ZIP.readUInt16LE(at))).toEqual([0, 0]);
    expect([12, 16].map((at) => EMPTY_ZIP.readUInt32LE(at))).toEqual([0, 0]);
    expect(EMPTY_ZIP.readUInt16LE(20)).toBe(0);
  });
});
