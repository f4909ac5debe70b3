import fc from "fast-check";
import {
  byIdName,
  type CatalogDisk,
  catalogDisks,
  chooseDisk,
  describeDisks,
  parseDiskRule,
  parseSize,
} from "../../../lib/provisioning/installDisk";

const GB = 1e9;
const disk = (logicalname: string, size: number, more: Partial<CatalogDisk> = {}): CatalogDisk => ({
  logicalname,
  size,
  product: "",
  vendor: "",
  serial: "",
  driver: "sd",
  removable: false,
  ...more,
});

/** A machine with three disks and a USB stick, as the microkernel's lshw catalog lists them. */
const DISKS = [
  disk("/dev/sda", 480 * GB, { product: "SAMSUNG MZ7LH480", vendor: "ATA", serial: "S45NNA0M123456" }),
  disk("/dev/sdb", 4000 * GB, { product: "ST4000NM0035-1V4", vendor: "ATA", serial: "ZC1ABCDE" }),
  disk("/dev/nvme0n1", 960 * GB, { product: "Dell Ent NVMe P5600 MU U.2 1.6TB", serial: "PHAB1234", driver: "nvme" }),
  disk("/dev/sdc", 32 * GB, { product: "Cruzer Blade", vendor: "SanDisk", serial: "4C5300", removable: true }),
];

describe("parseSize", () => {
  it("reads bytes, decimal and binary units", () => {
    expect(parseSize(1024)).toBe(1024);
    expect(parseSize("500GB")).toBe(500 * GB);
    expect(parseSize("1.5TB")).toBe(1.5e12);
    expect(parseSize("512 GiB")).toBe(512 * 2 ** 30);
    expect(parseSize("4096")).toBe(4096);
    expect(parseSize("2KiB")).toBe(2048);
  });

  it("refuses what is not a size", () => {
    for (const value of [-1, 1.5, Number.NaN, "", "GB", "5 XB", "1e9", "-5GB", "5gb", null, true, {}, "1".repeat(16)]) {
      expect(parseSize(value)).toBeUndefined();
    }
  });

  it("reads every whole number of any unit as that many of it (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999 }),
        fc.constantFrom("B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB"),
        (count, unit) => {
          const factor = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KiB: 1024, MiB: 2 ** 20, GiB: 2 ** 30 }[unit];
          expect(parseSize(`${count}${unit}`)).toBe(count * factor);
        },
      ),
    );
  });

  it("answers any text at once, a size or nothing (property: no backtracking on long input)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (text) => {
        const bytes = parseSize(text);
        expect(bytes === undefined || (Number.isSafeInteger(bytes) && bytes >= 0)).toBe(true);
      }),
    );
    expect(parseSize(`${"1".repeat(50_000)}x`)).toBeUndefined();
  });
});

describe("parseDiskRule", () => {
  const where = "task install-os";

  it("answers undefined for a device name or nothing: those are not rules", () => {
    for (const value of ["/dev/sda", "sda", undefined, null, 3, ["/dev/sda"]]) expect(parseDiskRule(value, where)).toBeUndefined();
  });

  it("reads each field, sizes into bytes, texts trimmed", () => {
    expect(parseDiskRule({ smallest: true }, where)).toEqual({ smallest: true });
    expect(parseDiskRule({ model: " QEMU NVMe Ctrl ", minSize: "100GB", maxSize: 2e12 }, where)).toEqual({
      model: "QEMU NVMe Ctrl",
      minSize: 100 * GB,
      maxSize: 2e12,
    });
    expect(parseDiskRule({ byId: "nvme-QEMU_NVMe_Ctrl_x" }, where)).toEqual({ byId: "nvme-QEMU_NVMe_Ctrl_x" });
  });

  it("refuses a rule of another shape, saying what is wrong and where", () => {
    const refused: [unknown, string][] = [
      [{}, "is an empty rule"],
      [{ size: "1TB" }, "has no field size"],
      [{ smallest: false }, "says smallest other than true"],
      [{ model: "" }, "has a model that is not a text"],
      [{ byId: 7 }, "has a byId that is not a text"],
      [{ model: "x".repeat(129) }, "has a model that is not a text"],
      [{ minSize: "big" }, "has a minSize that is neither a number of bytes"],
      [{ minSize: "2TB", maxSize: "1TB" }, "has a minSize over its maxSize"],
    ];
    for (const [value, what] of refused) {
      expect(() => parseDiskRule(value, where)).toThrow(
        expect.objectContaining({ kind: "bad-request", message: expect.stringContaining(`installDisk for task install-os ${what}`) }),
      );
    }
  });
});

describe("byIdName", () => {
  it("names ATA, NVMe and virtio disks as udev does, spaces as _", () => {
    expect(byIdName(DISKS[0])).toBe("ata-SAMSUNG_MZ7LH480_S45NNA0M123456");
    expect(byIdName(DISKS[2])).toBe("nvme-Dell_Ent_NVMe_P5600_MU_U.2_1.6TB_PHAB1234");
    expect(byIdName(disk("/dev/vda", GB, { driver: "virtio_blk", serial: "boot-disk" }))).toBe("virtio-boot-disk");
  });

  it("has no name for a disk without a serial, or on another bus", () => {
    expect(byIdName(disk("/dev/vdb", GB, { driver: "virtio_blk" }))).toBeUndefined();
    expect(byIdName(disk("/dev/sdd", GB, { vendor: "QEMU", product: "QEMU HARDDISK", serial: "x" }))).toBeUndefined();
  });
});

describe("chooseDisk", () => {
  it("picks the smallest non-removable disk (the USB stick is smaller, and never chosen)", () => {
    expect(chooseDisk({ smallest: true }, DISKS)?.logicalname).toBe("/dev/sda");
  });

  it("picks by model (case and the ends' spaces ignored), by by-id name, by size", () => {
    expect(chooseDisk({ model: "st4000nm0035-1v4" }, DISKS)?.logicalname).toBe("/dev/sdb");
    expect(chooseDisk({ byId: "nvme-Dell_Ent_NVMe_P5600_MU_U.2_1.6TB_PHAB1234" }, DISKS)?.logicalname).toBe("/dev/nvme0n1");
    expect(chooseDisk({ minSize: 500 * GB }, DISKS)?.logicalname).toBe("/dev/nvme0n1");
    expect(chooseDisk({ minSize: 1000 * GB, maxSize: 5000 * GB }, DISKS)?.logicalname).toBe("/dev/sdb");
  });

  it("answers undefined when no disk matches every field", () => {
    expect(chooseDisk({ model: "Cruzer Blade" }, DISKS)).toBeUndefined();
    expect(chooseDisk({ model: "SAMSUNG MZ7LH480", minSize: 500 * GB }, DISKS)).toBeUndefined();
    expect(chooseDisk({ smallest: true }, [])).toBeUndefined();
  });

  it("breaks a tie of sizes by the disks' names", () => {
    expect(chooseDisk({ smallest: true }, [disk("/dev/sdb", GB), disk("/dev/sda", GB)])?.logicalname).toBe("/dev/sda");
  });

  it("always answers a matching, non-removable disk no larger than any other match (property)", () => {
    const arbitraryDisk = fc.record({
      logicalname: fc.constantFrom("/dev/sda", "/dev/sdb", "/dev/nvme0n1", "/dev/vda"),
      size: fc.integer({ min: 0, max: 10 ** 13 }),
      product: fc.constantFrom("A", "B"),
      vendor: fc.constant("ATA"),
      serial: fc.constant("s"),
      driver: fc.constant("sd"),
      removable: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arbitraryDisk, { maxLength: 6 }), fc.option(fc.constantFrom("A", "B"), { nil: undefined }), (disks, model) => {
        const chosen = chooseDisk({ smallest: true, model }, disks);
        const matching = disks.filter((each) => !each.removable && (model === undefined || each.product === model));
        if (matching.length === 0) expect(chosen).toBeUndefined();
        else {
          expect(matching).toContain(chosen);
          expect(Math.min(...matching.map((each) => each.size))).toBe(chosen!.size);
        }
      }),
    );
  });
});

describe("catalogDisks", () => {
  it("reads the microkernel's lshw disks, skipping NICs and what is not a disk of a plain /dev name", () => {
    const lshw = {
      children: [
        { class: "network", logicalname: "eth0", serial: "52:54:00:00:00:01" },
        {
          class: "disk",
          logicalname: "/dev/nvme0n1",
          size: 3221225472,
          product: "QEMU NVMe Ctrl",
          serial: "m",
          configuration: { driver: "nvme", removable: "no" },
        },
        { class: "disk", logicalname: "/dev/sdb", size: "1073741824", vendor: "ATA", configuration: { removable: "yes" } },
        { class: "disk", logicalname: "/dev/../etc/passwd", size: 1 },
        { class: "disk", logicalname: "/dev/sdc", size: "big" },
        { class: "disk", size: 1 },
        "not an object",
      ],
    };
    expect(catalogDisks(lshw)).toEqual([
      {
        logicalname: "/dev/nvme0n1",
        size: 3221225472,
        product: "QEMU NVMe Ctrl",
        vendor: "",
        serial: "m",
        driver: "nvme",
        removable: false,
      },
      { logicalname: "/dev/sdb", size: 1073741824, product: "", vendor: "ATA", serial: "", driver: "", removable: true },
    ]);
  });

  it("answers no disk for a catalog of another shape", () => {
    for (const data of [undefined, null, "text", [], { children: "x" }, {}]) expect(catalogDisks(data)).toEqual([]);
  });
});

describe("describeDisks", () => {
  it("lists each disk with its size, model and removability, or says none", () => {
    expect(describeDisks([])).toBe("none");
    expect(describeDisks([DISKS[0], DISKS[3]])).toBe(
      "/dev/sda (480000000000 bytes, SAMSUNG MZ7LH480), /dev/sdc (32000000000 bytes, Cruzer Blade, removable)",
    );
  });
});
