import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { storableKeys } from "../../../lib/provisioning/catalogs/catalog";
import {
  parseColonTable,
  parseCommandOutput,
  parseDmidecode,
  parseLspci,
  parseLsscsi,
  parseSecureBootState,
} from "../../../lib/provisioning/discovery/catalogParsers";
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

  it("reads dmidecode's edges: CRLF lines, a handle with no title, a key with no colon, list items ended by a blank line", () => {
    const text = [
      "Handle 0x0000, DMI type 0, 24 bytes\r",
      "BIOS Information\r",
      "\tVendor: SeaBIOS\r",
      "\tCharacteristics:",
      "\t\tPCI is supported",
      "\t\tBIOS is upgradeable",
      "\tno colon on this line",
      "\t: an empty key",
      "",
      "\t\tnot a list item (the list ended)",
      "Handle 0x0001, DMI type 1, 27 bytes",
      "",
      "Handle 0x0002, DMI type 4, 48 bytes",
      "Processor Information",
      "\tVersion: one",
      "Handle 0x0003, DMI type 4, 48 bytes",
      "Processor Information",
      "\tVersion: two",
      "Handle 0x0004, DMI type 4, 48 bytes",
      "Processor Information",
      "\tVersion: three",
    ].join("\n");
    expect(parseDmidecode(text)).toEqual({
      "BIOS Information": { Vendor: "SeaBIOS", Characteristics: ["PCI is supported", "BIOS is upgradeable"], "": "an empty key" },
      "Processor Information": [{ Version: "one" }, { Version: "two" }, { Version: "three" }],
    });
    expect(parseDmidecode("Handle 0x0000, DMI type 0, 24 bytes")).toBeUndefined();
    expect(parseDmidecode("\tVendor: before any handle")).toBeUndefined();
  });

  it("reads lspci's records trimmed, skipping empty ones and lines with no key", () => {
    expect(parseLspci("\n\nSlot:\t00:03.0\n  Class:\tEthernet controller [0200]  \nno key here\n \n\nSlot:\t00:04.0\n")).toEqual([
      { Slot: "00:03.0", Class: "Ethernet controller [0200]" },
      { Slot: "00:04.0" },
    ]);
    expect(parseLspci("\n \n")).toBeUndefined();
  });

  it("reads ipmitool's tables: trimmed keys and values; continuation lines, keys with no value and empty keys skipped", () => {
    expect(parseColonTable("  Device ID   :  32  \n                 : continuation\nAux Firmware Rev Info     : \nno separator\n")).toEqual(
      {
        "Device ID": "32",
      },
    );
    expect(parseColonTable("\n")).toBeUndefined();
    expect(parseCommandOutput("sudo ipmitool mc info", "   \n")).toBeUndefined();
    expect(parseCommandOutput("sudo ipmitool lan print", "IP Address : 10.0.0.9\nMAC Address : 52:54:00:00:00:09\n")).toEqual({
      source: "bmc",
      data: { "IP Address": "10.0.0.9", "MAC Address": "52:54:00:00:00:09" },
    });
    expect(parseCommandOutput("sudo ipmitool sel", "Entries : 0\n")).toEqual({ source: "ipmi-sel-information", data: { Entries: "0" } });
    expect(parseCommandOutput("sudo ohai --directory /etc/ohai/plugins", "null")).toBeUndefined();
  });

  it("reads lsscsi --size: SCSI and SATA disks, an NVMe namespace, a CD drive with no size; other lines skipped", () => {
    const text = [
      "[0:0:0:0]\tdisk\tATA      QEMU HARDDISK    2.5+\t/dev/sda\t1.07GB",
      "[1:0:0:0]    cd/dvd  VBOX     CD-ROM           1.0   /dev/sr0        -",
      "[N:0:1:1]\tdisk\tQEMU NVMe Ctrl__1               \t/dev/nvme0n1\t3.22GB",
      "[2:0:0:0] disk QEMU QEMU /dev/sdb 2GB",
      "not a device line at all",
      "[0:0:0] disk too few",
      "",
    ].join("\n");
    expect(parseLsscsi(text)).toEqual([
      {
        scsiInfo: "[0:0:0:0]",
        peripheralType: "disk",
        vendorName: "ATA",
        modelName: "QEMU HARDDISK",
        revisionString: "2.5+",
        devicePath: "/dev/sda",
        size: "1.07GB",
      },
      {
        scsiInfo: "[1:0:0:0]",
        peripheralType: "cd/dvd",
        vendorName: "VBOX",
        modelName: "CD-ROM",
        revisionString: "1.0",
        devicePath: "/dev/sr0",
        size: "-",
      },
      {
        scsiInfo: "[N:0:1:1]",
        peripheralType: "disk",
        vendorName: "",
        modelName: "QEMU NVMe Ctrl__1",
        revisionString: "",
        devicePath: "/dev/nvme0n1",
        size: "3.22GB",
      },
      {
        scsiInfo: "[2:0:0:0]",
        peripheralType: "disk",
        vendorName: "QEMU",
        modelName: "QEMU",
        revisionString: "",
        devicePath: "/dev/sdb",
        size: "2GB",
      },
    ]);
    expect(parseCommandOutput("sudo lsscsi --size", sample("lsscsi.txt"))).toMatchObject({
      source: "lsscsi",
      data: [{ devicePath: "/dev/sda" }, { devicePath: "/dev/sr0" }],
    });
    expect(parseLsscsi("nothing\n")).toBeUndefined();
  });

  it("reads lsscsi's every line in one pass, whatever the machine sends (property: no backtracking, no throw)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), (stdout) => {
        for (const device of parseLsscsi(stdout) ?? []) expect(device.scsiInfo).toMatch(/^\[/);
      }),
    );
    expect(parseLsscsi(`[${"1:".repeat(20_000)}]`)).toBeUndefined();
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

describe("mokutil --sb-state (issue 38): whether the firmware booted with Secure Boot on", () => {
  it("reads enabled, disabled, and a machine with none (BIOS, or firmware without the variable)", () => {
    expect(parseCommandOutput("sudo mokutil --sb-state", "SecureBoot enabled\n")).toEqual({
      source: "secure-boot",
      data: { secureBoot: "enabled", text: "SecureBoot enabled" },
    });
    expect(parseSecureBootState("SecureBoot disabled\nPlatform is in Setup Mode\n")).toEqual({
      secureBoot: "disabled",
      text: "SecureBoot disabled",
    });
    expect(parseSecureBootState("EFI variables are not supported on this system")).toMatchObject({ secureBoot: "unsupported" });
    expect(parseSecureBootState("  \n")).toBeUndefined();
  });

  it("never takes more than a line of 200 characters of what a machine says, and never says enabled for anything else", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (text) => {
        const state = parseSecureBootState(text);
        if (!state) return;
        expect(state.text.length).toBeLessThanOrEqual(200);
        if (state.secureBoot === "enabled") expect(text.trim().split("\n")[0].trim()).toMatch(/^SecureBoot enabled$/i);
      }),
    );
  });
});
