/**
 * pci.ids as the microkernel reads it: the vendor, device, class and subclass lines that its
 * lspci and lshw catalogs name devices by (init.sh's `pci_names`). The comments and the
 * subsystem and programming-interface lines (two tabs deep, which no catalog names) are left out:
 * they are 44 % of Debian's file, which busybox's awk reads whole at each discovery.
 */
export function namesOnly(pciIds: string): string {
  return pciIds
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#") && !line.startsWith("\t\t"))
    .map((line) => `${line}\n`)
    .join("");
}
