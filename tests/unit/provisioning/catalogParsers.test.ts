import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { storableKeys } from "../../../lib/provisioning/catalogs/catalog";
import { parseColonTable, parseCommandOutput, parseDmidecode, parseLspci } from "../../../lib/provisioning/discovery/catalogParsers";
import { commandsOf, nicMacs } from "../../../lib/provisioning/discovery/microkernel";

const sample = (name: string) => readFileSync(join(__dirname, "../../../scripts/sampleMachine", name), "utf8");

describe("catalog parsers (RackHD's command parser, for the discovery tasks' commands)", () => {
  it("reads dmidecode's sections, keys, lists, and repeated sections as a list", () => {
    const dmi = parseDmidecode(sample("dmidecode.txt"))!;
    expect(dmi["System Information"]).toMatchObject({
      Manufacturer: "innotek GmbH",
      "Product Name": "VirtualBox",
      UUID: expect.any(String),
    });
    expect((dmi["BIOS Information"] as Record<string, unknown>).Characteristics).toEqual(expect.arrayContaining(["PCI is supported"]));
    expect(dmi.Inactive).toHaveLength(2);
    expect(parseDmidecode("no sections here")).toBeUndefined();
  });

  it("reads lspci -vmm records, ipmitool tables, and JSON outputs; an unknown command or unreadable output gives nothing", () => {
    expect(parseLspci(sample("lspci.txt"))).toEqual(
      expect.arrayContaining([expect.objectContaining({ Class: "Ethernet controller [0200]" })]),
    );
    expect(parseColonTable("IP Address Source       : Static Address\nMAC Address             : 00:1e:67:98:bc:7e\n")).toEqual({
      "IP Address Source": "Static Address",
      "MAC Address": "00:1e:67:98:bc:7e",
    });
    expect(parseCommandOutput("sudo ipmitool lan print", "MAC Address : 00:00:00:00:00:00\n")).toBeUndefined();
    expect(parseCommandOutput("sudo lshw -json", sample("lshw.json"))?.source).toBe("lshw");
    expect(parseCommandOutput("sudo lshw -json", "{not json")).toBeUndefined();
    expect(parseCommandOutput("sudo rm -rf /", "x")).toBeUndefined();
    expect(parseCommandOutput("constructor", "x")).toBeUndefined();
  });

  it("never throws on any output of any command", () => {
    const commands = ["sudo dmidecode", "sudo lspci -nn -vmm", "sudo ipmitool mc info", "sudo ohai --directory /etc/ohai/plugins", "x"];
    fc.assert(
      fc.property(fc.constantFrom(...commands), fc.string({ maxLength: 2000 }), (cmd, stdout) => {
        parseCommandOutput(cmd, stdout);
      }),
    );
  });

  it("stores keys with . and $ as _ (RackHD's MongoDB rule), in nested objects and arrays", () => {
    expect(storableKeys({ "a.b": [{ $c: 1 }], d: { "e.f": 2 } })).toEqual({ a_b: [{ _c: 1 }], d: { e_f: 2 } });
  });

  it("finds the NICs lshw reports", () => {
    expect(nicMacs([{ source: "lshw", data: JSON.parse(sample("lshw.json")) }])).toEqual(["08:00:27:27:eb:12"]);
  });

  it("hands out a task's commands in RackHD's shape, catalog flags and accepted codes included", () => {
    const task = {
      options: {
        commands: [
          "sudo dmidecode",
          { command: "sudo lshw -json", catalog: { format: "json", source: "lshw user" } },
          { command: "test", acceptedResponseCodes: [1] },
          { nonsense: true },
        ],
      },
    };
    expect(commandsOf(task as never)).toEqual([
      { cmd: "sudo dmidecode" },
      { cmd: "sudo lshw -json", catalog: true, source: "lshw user", format: "json" },
      { cmd: "test", acceptedResponseCodes: [1] },
    ]);
  });
});
