import { keyedNames } from "../../../microkernel/pciIds";

describe("pci.ids for the microkernel", () => {
  it("keys each vendor, device, class and subclass name as the catalogs look it up, in the file's order", () => {
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
    expect(keyedNames(file)).toBe(
      [
        "V8086\tIntel Corporation",
        "D8086:100e\t82540EM Gigabit Ethernet Controller",
        "V1af4\tRed Hat, Inc.",
        "D1af4:1000\tVirtio network device",
        "C01\tMass storage controller",
        "C0106\tSATA controller",
        "",
      ].join("\n"),
    );
  });

  it("leaves out comments, blank lines, subsystems and programming interfaces", () => {
    expect(keyedNames("# only\n\n\t\t8086 001e  a subsystem\n\t\t01  an interface\n")).toBe("");
  });
});
