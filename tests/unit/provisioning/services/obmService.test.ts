import { nodeObmSettings, obmLibrary, obmLibraryEntry, setNodeObm } from "../../../../lib/provisioning/obm/obmService";
import { aNode, later, memoryStores, T0 } from "./setUp";

describe("obmService", () => {
  it("lists the OBM library and answers one entry, 404 for a service it does not hold", () => {
    const names = obmLibrary().map((entry) => entry.service);
    expect(names).toContain("ipmi-obm-service");
    expect(obmLibraryEntry("ipmi-obm-service").service).toBe("ipmi-obm-service");
    expect(() => obmLibraryEntry("telnet-obm-service")).toThrow("Could not find OBM service telnet-obm-service");
  });

  it("sets a node's OBM settings, one per service, an update replacing that service's config", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    await setNodeObm(stores, node.id, async () => ({ service: "ipmi-obm-service", config: { host: "10.0.0.1" } }), T0);
    await setNodeObm(stores, node.id, async () => [{ service: "ipmi-obm-service", config: { host: "10.0.0.2" } }], later(1));
    expect(await nodeObmSettings(stores, node.id)).toEqual([{ service: "ipmi-obm-service", config: { host: "10.0.0.2" } }]);
  });

  it("checks the node before the body, then refuses an unknown service, storing nothing", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const neverRead = jest.fn();
    await expect(setNodeObm(stores, "nope", neverRead, T0)).rejects.toMatchObject({ kind: "not-found" });
    expect(neverRead).not.toHaveBeenCalled();
    await expect(setNodeObm(stores, node.id, async () => ({ service: "nope-obm-service", config: {} }), T0)).rejects.toThrow(
      "Unknown OBM service nope-obm-service",
    );
    expect(await nodeObmSettings(stores, node.id)).toEqual([]);
  });
});
