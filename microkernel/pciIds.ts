/**
 * pci.ids as the microkernel reads it (init.sh's `pci_names`): one "key<TAB>name" line per vendor
 * ("V8086"), device ("D8086:100e"), class ("C01") and subclass ("C0106"), in the file's order, the
 * keys its lspci and lshw catalogs name devices by. Keyed once here, at the initramfs build: busybox's
 * awk then finds a machine's names by the key alone instead of testing every line of pci.ids against
 * four patterns (1.7 s of each discovery under emulation). Comments and the subsystem and
 * programming-interface lines (two tabs deep, which no catalog names) are left out.
 */
export function keyedNames(pciIds: string): string {
  let top = "";
  let vendor = "";
  const lines: string[] = [];
  for (const line of pciIds.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("C ")) {
      top = `C${line.slice(2, 4)}`;
      lines.push(`${top}\t${line.slice(6)}`);
    } else if (/^[0-9a-f]{4} {2}/.test(line)) {
      vendor = line.slice(0, 4);
      top = `V${vendor}`;
      lines.push(`${top}\t${line.slice(6)}`);
    } else if (/^\t[^\t]/.test(line)) {
      // Under a class, a subclass ("\t06  SATA controller"); under a vendor, a device ("\t100e  82540EM ...").
      lines.push(top.startsWith("C") ? `${top}${line.slice(1, 3)}\t${line.slice(5)}` : `D${vendor}:${line.slice(1, 5)}\t${line.slice(7)}`);
    }
  }
  return lines.map((line) => `${line}\n`).join("");
}
