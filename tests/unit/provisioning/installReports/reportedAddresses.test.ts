import fc from "fast-check";
import { ValidationError } from "../../../../lib/errors";
import { parseReportedNics } from "../../../../lib/provisioning/installReports/reportedAddresses";
import { acceptEvent } from "../../../../lib/provisioning/installReports/reportService";
import { findLookups } from "../../../../lib/provisioning/lookups/lookupService";
import { later, memoryStores } from "../services/setUp";
import { bootedImageInstall, MAC } from "./support";

/** The installed system's addresses, per NIC, from its first boot's report (issue 50). */
const report = (addresses: unknown) => ({
  event_type: "progress",
  name: "addresses",
  origin: "provisioning-service",
  description: "the installed system's addresses, per NIC",
  timestamp: 1764000000.5,
  addresses,
});

describe("the installed system's addresses (issue 50)", () => {
  it("are kept on the node, with who reported them and when, and its own MACs' lookups point at them", async () => {
    const stores = memoryStores();
    const { node, credential } = await bootedImageInstall(stores);
    // The microkernel's lease: what the lookup said before.
    expect((await findLookups(stores, MAC))[0]).toMatchObject({ ipAddress: "10.0.0.5" });
    const nics = [
      { name: "enp0s3", mac: MAC.toUpperCase(), addresses: ["10.0.0.60/24", "2001:db8::60/64"] },
      { name: "enp0s4", mac: "52:54:00:00:00:99", addresses: ["192.0.2.7/24"] },
    ];
    await acceptEvent(stores, credential, report(nics), later(10));
    expect((await stores.nodes.get(node.id))?.addresses).toEqual({
      nics: [
        { name: "enp0s3", mac: MAC, addresses: ["10.0.0.60/24", "2001:db8::60/64"] },
        { name: "enp0s4", mac: "52:54:00:00:00:99", addresses: ["192.0.2.7/24"] },
      ],
      source: "installed-system",
      reportedAt: later(10).toISOString(),
    });
    expect((await findLookups(stores, MAC))[0]).toMatchObject({ ipAddress: "10.0.0.60", node: node.id });
    // A MAC that is not one of the node's moves no lookup: the machine's word is not another node's identity.
    expect(await findLookups(stores, "52:54:00:00:00:99")).toEqual([]);
    // The report is in the timeline, and changes nothing of the install.
    const report_ = await stores.installReports.get(node.id);
    expect(report_?.events.at(-1)).toMatchObject({ type: "progress", name: "addresses" });
  });

  it("refuses what is not NICs with addresses, naming the field, and changes nothing", async () => {
    const stores = memoryStores();
    const { node, credential } = await bootedImageInstall(stores);
    for (const [addresses, message] of [
      ["x", /^addresses must be an array/],
      [Array.from({ length: 17 }, () => ({ name: "e", mac: MAC, addresses: [] })), /at most 16 NICs/],
      [[{ name: "e; rm -rf /", mac: MAC, addresses: [] }], /addresses\[0\]\.name must be an interface name/],
      [[{ name: "e", mac: "nope", addresses: [] }], /addresses\[0\]\.mac must be a MAC address/],
      [[{ name: "e", mac: MAC, addresses: ["10.0.0.1"] }], /addresses\[0\]\.addresses\[0\] must be an address with its prefix length/],
      [[{ name: "e", mac: MAC, addresses: ["10.0.0.1/33"] }], /addresses\[0\]\.addresses\[0\]/],
      [[{ name: "e", mac: MAC, addresses: ["host.example/24"] }], /addresses\[0\]\.addresses\[0\]/],
    ] as const) {
      await expect(acceptEvent(stores, credential, report(addresses), later(10))).rejects.toThrow(message);
    }
    expect((await stores.nodes.get(node.id))?.addresses).toBeUndefined();
  });

  it("takes every well-formed NIC list and refuses everything else without throwing anything but a 400", () => {
    const nic = fc.record({
      name: fc.stringMatching(/^[a-z][a-z0-9]{0,14}$/),
      mac: fc
        .array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 })
        .map((bytes) => bytes.map((byte) => byte.toString(16).padStart(2, "0")).join(":")),
      addresses: fc.array(
        fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([ip, prefix]) => `${ip}/${prefix}`),
        { maxLength: 16 },
      ),
    });
    fc.assert(
      fc.property(fc.array(nic, { maxLength: 16 }), (nics) => {
        expect(parseReportedNics(nics)).toEqual(nics);
      }),
    );
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          parseReportedNics(value);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
      }),
    );
  });
});
