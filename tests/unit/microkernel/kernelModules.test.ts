import fc from "fast-check";
import { ALL_DRIVERS, DRIVERS } from "../../../microkernel/drivers";
import { moduleClosure, moduleName, parseModulesDep } from "../../../microkernel/kernelModules";

/** A modules.dep as busybox's depmod writes it for Debian's generic kernel (trimmed). */
const MODULES_DEP = [
  "kernel/drivers/net/ethernet/intel/e1000e/e1000e.ko: kernel/drivers/ptp/ptp.ko kernel/drivers/pps/pps_core.ko",
  "kernel/drivers/ptp/ptp.ko: kernel/drivers/pps/pps_core.ko",
  "kernel/drivers/pps/pps_core.ko:",
  "kernel/drivers/usb/host/xhci-pci.ko: kernel/drivers/usb/host/xhci-hcd.ko kernel/drivers/usb/core/usbcore.ko",
  "kernel/drivers/usb/host/xhci-hcd.ko: kernel/drivers/usb/core/usbcore.ko",
  "kernel/drivers/usb/core/usbcore.ko:",
  "",
].join("\n");

describe("moduleName", () => {
  it("is the file's base name without .ko, with - read as _ (as modprobe reads it)", () => {
    expect(moduleName("kernel/drivers/usb/host/xhci-pci.ko")).toBe("xhci_pci");
    expect(moduleName("kernel/fs/ext4/ext4.ko.xz")).toBe("ext4");
    expect(moduleName("8139too")).toBe("8139too");
  });
});

describe("parseModulesDep", () => {
  it("maps each module to its file and its dependencies' files, skipping blank and malformed lines", () => {
    const modules = parseModulesDep(`${MODULES_DEP}no colon here\n: nothing before the colon\n`);
    expect(modules.size).toBe(6);
    expect(modules.get("e1000e")).toEqual({
      path: "kernel/drivers/net/ethernet/intel/e1000e/e1000e.ko",
      depends: ["kernel/drivers/ptp/ptp.ko", "kernel/drivers/pps/pps_core.ko"],
    });
    expect(modules.get("pps_core")).toEqual({ path: "kernel/drivers/pps/pps_core.ko", depends: [] });
  });
});

describe("moduleClosure", () => {
  it("answers the wanted modules' files and every file they depend on, once each, sorted", () => {
    expect(moduleClosure(MODULES_DEP, ["e1000e", "xhci-pci"])).toEqual([
      "kernel/drivers/net/ethernet/intel/e1000e/e1000e.ko",
      "kernel/drivers/pps/pps_core.ko",
      "kernel/drivers/ptp/ptp.ko",
      "kernel/drivers/usb/core/usbcore.ko",
      "kernel/drivers/usb/host/xhci-hcd.ko",
      "kernel/drivers/usb/host/xhci-pci.ko",
    ]);
  });

  it("follows a dependency's own line when depmod listed only the direct ones", () => {
    const direct = "a/top.ko: a/middle.ko\na/middle.ko: a/bottom.ko\na/bottom.ko:\n";
    expect(moduleClosure(direct, ["top"])).toEqual(["a/bottom.ko", "a/middle.ko", "a/top.ko"]);
  });

  it("refuses a driver the kernel has no module for, naming every one missing", () => {
    expect(() => moduleClosure(MODULES_DEP, ["e1000e", "igc", "mlx5_core"])).toThrow("The kernel has no module named igc, mlx5_core");
  });

  it("holds every wanted module whatever the order asked (property)", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(["e1000e", "xhci_pci", "ptp", "usbcore"], { minLength: 1 }), (wanted) => {
        const files = moduleClosure(MODULES_DEP, wanted);
        for (const name of wanted) expect(files.map(moduleName)).toContain(name);
        expect(new Set(files).size).toBe(files.length);
      }),
    );
  });
});

describe("DRIVERS", () => {
  it("names each server NIC and storage driver the microkernel promises (docs/boot.md's table)", () => {
    expect(DRIVERS.network).toEqual(expect.arrayContaining(["e1000", "e1000e", "igb", "ixgbe", "i40e", "ice", "tg3", "bnxt_en", "bnx2x"]));
    expect(DRIVERS.network).toEqual(expect.arrayContaining(["mlx4_en", "mlx5_core", "r8169", "vmxnet3", "virtio_net"]));
    expect(DRIVERS.storage).toEqual(
      expect.arrayContaining(["ahci", "nvme", "megaraid_sas", "mpt3sas", "hpsa", "smartpqi", "virtio_scsi", "virtio_blk"]),
    );
    expect(new Set(ALL_DRIVERS).size).toBe(ALL_DRIVERS.length);
  });
});
