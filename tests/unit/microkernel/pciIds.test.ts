import { namesOnly } from "../../../microkernel/pciIds";

describe("pci.ids for the microkernel", () => {
  it("keeps vendors, devices, classes and subclasses, and leaves out comments, blank lines, subsystems and programming interfaces", () => {
    const file = [
      "# pci.ids",
      "",
      "8086  Intel Corporation",
      "\t100e  82540EM Gigabit Ethernet Controller",
      "\t\t8086 001e  PRO/1000 MT Desktop Adapter",
      "1af4  Red Hat, Inc.",
      "\t1000  Virtio network device",
      "# List of known device classes",
      "C 01  Mass storage controller",
      "\t06  SATA controller",
      "\t\t01  AHCI 1.0",
      "",
    ].join("\n");
    expect(namesOnly(file)).toBe(
      [
        "8086  Intel Corporation",
        "\t100e  82540EM Gigabit Ethernet Controller",
        "1af4  Red Hat, Inc.",
        "\t1000  Virtio network device",
        "C 01  Mass storage controller",
        "\t06  SATA controller",
        "",
      ].join("\n"),
    );
  });
});
