import { parse } from "yaml";
import { isPlainObject as isRecord } from "../lib/json";

/**
 * The lab's machines (issue 52): what `lab.yml` declares, with its defaults, checked before
 * anything is made. A mistake is named by its place in the file (`machines[1].disks[0].bus`) and
 * what would do, so `npm run lab -- up` stops before it makes a bridge, a BMC or a disk.
 */

/** SeaBIOS, OVMF, or OVMF's Secure Boot build with Microsoft's keys enrolled. */
export const FIRMWARES = ["bios", "uefi", "uefi-secure-boot"] as const;
export type Firmware = (typeof FIRMWARES)[number];

/**
 * The NIC models a machine may have, as the lab names them, with QEMU's device. `igb` came in
 * QEMU 8.0 (Debian 12 has 7.2): it is declared, and `up` refuses it on a QEMU without it.
 */
export const NIC_MODELS = {
  e1000: "e1000",
  e1000e: "e1000e",
  igb: "igb",
  vmxnet3: "vmxnet3",
  rtl8139: "rtl8139",
  virtio: "virtio-net-pci",
} as const;
export type NicModel = keyof typeof NIC_MODELS;

/**
 * The NIC a Secure Boot machine boots from. A server's Intel or Broadcom NIC carries its vendor's
 * signed UEFI driver; QEMU's option ROMs for its emulated NICs are iPXE builds, unsigned, so OVMF
 * with Secure Boot refuses them and has no PXE on those NICs. Its own virtio-net driver is signed
 * as part of the firmware.
 */
export const SECURE_BOOT_NIC: NicModel = "virtio";

/** The disk buses a machine may have: NVMe, SATA (AHCI), SAS (MegaRAID, megasas), LSI (53C895A), virtio. */
export const DISK_BUSES = ["nvme", "sata", "sas", "lsi", "virtio"] as const;
export type DiskBus = (typeof DISK_BUSES)[number];

/** A BMC on the machine's KCS interface and its LAN: OpenIPMI's ipmi_sim, or the tests' Redfish BMC; or none (a person powers it). */
export const BMC_KINDS = ["ipmi", "redfish", "none"] as const;
export type BmcKind = (typeof BMC_KINDS)[number];

export interface LabNic {
  model: NicModel;
  mac: string;
}

export interface LabDisk {
  bus: DiskBus;
  sizeGiB: number;
}

export interface LabMachine {
  name: string;
  firmware: Firmware;
  /** In PCI order; the first is on the site's network and boots. */
  nics: LabNic[];
  disks: LabDisk[];
  memoryMiB: number;
  bmc: BmcKind;
}

/** What a lab may hold: enough for a rack's worth on one host, few enough that a typo cannot start fifty VMs. */
export const LAB_LIMITS = {
  machines: 8,
  nics: 2,
  disks: 4,
  nameChars: 31,
  sizeGiB: { min: 1, max: 64 },
  memoryMiB: { min: 512, max: 8192 },
} as const;

const NAME = /^[a-z][a-z0-9-]*$/;
const MAC = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/;

/**
 * The machines when `lab.yml` names none: one of each firmware, physical-class devices (Intel NICs,
 * NVMe, SATA and SAS disks), each with its BMC, so the three paths a site has (legacy BIOS, UEFI,
 * Secure Boot) are there at once. The Secure Boot one has three SATA disks, as the boot tier's.
 */
export const DEFAULT_MACHINES: readonly MachineDeclaration[] = [
  { name: "bios-1", firmware: "bios", nics: [{ model: "e1000e" }], disks: [{ bus: "sas", sizeGiB: 8 }], bmc: "ipmi" },
  {
    name: "uefi-1",
    firmware: "uefi",
    nics: [{ model: "e1000e" }, { model: "e1000" }],
    disks: [{ bus: "nvme", sizeGiB: 8 }],
    bmc: "redfish",
  },
  {
    name: "secure-1",
    firmware: "uefi-secure-boot",
    // It boots from virtio-net, the one NIC OVMF has a driver of its own for (see `SECURE_BOOT_NIC`), and has an Intel one beside it.
    nics: [{ model: "virtio" }, { model: "e1000e" }],
    disks: [
      { bus: "sata", sizeGiB: 4 },
      { bus: "sata", sizeGiB: 8 },
      { bus: "sata", sizeGiB: 4 },
    ],
    bmc: "ipmi",
  },
];

/** A machine as `lab.yml` may write it: everything but its name has a default. */
export interface MachineDeclaration {
  name: string;
  firmware?: Firmware;
  nics?: { model?: NicModel; mac?: string }[];
  disks?: { bus?: DiskBus; sizeGiB?: number }[];
  memoryMiB?: number;
  bmc?: BmcKind;
}

export class LabFileError extends Error {
  constructor(
    readonly problems: string[],
    source = "lab.yml",
  ) {
    super(`${source} is not one the lab can make:\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
    this.name = "LabFileError";
  }
}

/** The lab's MACs: QEMU's locally administered prefix, then the machine's and the NIC's numbers (52:54:00:1a:MM:NN). */
export const labMac = (machine: number, nic: number): string =>
  `52:54:00:1a:${(0xb0 + machine).toString(16).padStart(2, "0")}:${(nic + 1).toString(16).padStart(2, "0")}`;

const oneOf = <T extends string>(choices: readonly T[], value: unknown, at: string, problems: string[], fallback: T): T => {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (choices as readonly string[]).includes(value)) return value as T;
  problems.push(`${at}: ${JSON.stringify(value)} is not one of ${choices.join(", ")}`);
  return fallback;
};

const integerIn = (value: unknown, at: string, range: { min: number; max: number }, problems: string[], fallback: number): number => {
  if (value === undefined) return fallback;
  if (Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max) return value as number;
  problems.push(`${at}: ${JSON.stringify(value)} is not a whole number from ${range.min} to ${range.max}`);
  return fallback;
};

const listOf = (value: unknown, at: string, max: number, problems: string[]): unknown[] | undefined => {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > max) {
    problems.push(`${at}: must be a list of 1 to ${max}`);
    return undefined;
  }
  return value;
};

const KEYS = {
  machine: ["name", "firmware", "nics", "disks", "memoryMiB", "bmc"],
  nic: ["model", "mac"],
  disk: ["bus", "sizeGiB"],
} as const;

/** The fields of a list item, or none (and a problem) when it is no mapping. */
function fieldsOf(value: unknown, at: string, problems: string[]): Record<string, unknown> {
  if (isRecord(value)) return value;
  problems.push(`${at}: must be a mapping`);
  return {};
}

function unknownKeys(value: Record<string, unknown>, known: readonly string[], at: string, problems: string[]): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) problems.push(`${at}.${key}: unknown (known: ${known.join(", ")})`);
}

function machineFrom(value: unknown, index: number, problems: string[]): LabMachine | undefined {
  const at = `machines[${index}]`;
  if (!isRecord(value)) {
    problems.push(`${at}: must be a mapping with at least a name`);
    return undefined;
  }
  unknownKeys(value, KEYS.machine, at, problems);
  const name = value.name;
  if (typeof name !== "string" || name.length > LAB_LIMITS.nameChars || !NAME.test(name)) {
    problems.push(
      `${at}.name: ${JSON.stringify(name)} must be lower-case letters, digits and dashes, starting with a letter, at most ${LAB_LIMITS.nameChars}`,
    );
  }
  const nics = (listOf(value.nics, `${at}.nics`, LAB_LIMITS.nics, problems) ?? [{}]).map((nic, n) => {
    const nicAt = `${at}.nics[${n}]`;
    const fields = fieldsOf(nic, nicAt, problems);
    unknownKeys(fields, KEYS.nic, nicAt, problems);
    const mac = fields.mac === undefined ? labMac(index, n) : typeof fields.mac === "string" ? fields.mac.toLowerCase() : "";
    if (!MAC.test(mac)) problems.push(`${nicAt}.mac: ${JSON.stringify(fields.mac)} is not a MAC (six hex pairs, colons)`);
    return { model: oneOf(Object.keys(NIC_MODELS) as NicModel[], fields.model, `${nicAt}.model`, problems, "e1000e"), mac };
  });
  const disks = (listOf(value.disks, `${at}.disks`, LAB_LIMITS.disks, problems) ?? [{}]).map((disk, d) => {
    const diskAt = `${at}.disks[${d}]`;
    const fields = fieldsOf(disk, diskAt, problems);
    unknownKeys(fields, KEYS.disk, diskAt, problems);
    return {
      bus: oneOf(DISK_BUSES, fields.bus, `${diskAt}.bus`, problems, "nvme"),
      sizeGiB: integerIn(fields.sizeGiB, `${diskAt}.sizeGiB`, LAB_LIMITS.sizeGiB, problems, 8),
    };
  });
  const firmware = oneOf(FIRMWARES, value.firmware, `${at}.firmware`, problems, "uefi");
  if (firmware === "uefi-secure-boot" && nics[0].model !== SECURE_BOOT_NIC)
    problems.push(
      `${at}.nics[0].model: a machine with Secure Boot on boots from virtio (OVMF's own driver); QEMU's ROM for ${nics[0].model} is iPXE, unsigned, which its firmware refuses (a second NIC may be any model)`,
    );
  return {
    name: typeof name === "string" ? name : "",
    firmware,
    nics,
    disks,
    memoryMiB: integerIn(value.memoryMiB, `${at}.memoryMiB`, LAB_LIMITS.memoryMiB, problems, 1024),
    bmc: oneOf(BMC_KINDS, value.bmc, `${at}.bmc`, problems, "ipmi"),
  };
}

/** The lab's machines from what `lab.yml` holds (already parsed), or the defaults when it names none; every problem at once. */
export function labMachines(document: unknown): LabMachine[] {
  const problems: string[] = [];
  if (document !== undefined && document !== null && !isRecord(document))
    throw new LabFileError(["the file must be a mapping with `machines:`"]);
  const fields = (document ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (key !== "machines") problems.push(`${key}: unknown (known: machines)`);
  const declared =
    fields.machines === undefined ? DEFAULT_MACHINES : (listOf(fields.machines, "machines", LAB_LIMITS.machines, problems) ?? []);
  const machines = declared.flatMap((value, index) => machineFrom(value, index, problems) ?? []);
  const seen = new Map<string, string>();
  machines.forEach((machine, index) => {
    if (seen.has(machine.name)) problems.push(`machines[${index}].name: ${machine.name} is ${seen.get(machine.name)}'s name too`);
    seen.set(machine.name, `machines[${index}]`);
    machine.nics.forEach((nic, n) => {
      const place = `machines[${index}].nics[${n}]`;
      if (seen.has(nic.mac)) problems.push(`${place}.mac: ${nic.mac} is ${seen.get(nic.mac)}'s too`);
      seen.set(nic.mac, place);
    });
  });
  if (problems.length > 0) throw new LabFileError(problems);
  return machines;
}

/**
 * Machines from the command line, for a lab without a file: each `--machine` is a name and then
 * `key=value` pairs, `firmware=…`, `bmc=…`, `memory=<MiB>`, `nic=<model>` and `disk=<bus>[:<GiB>]`
 * (those two once per NIC or disk), e.g. `--machine web-1,firmware=bios,nic=igb,disk=sas:16`.
 * They go through the same checks as `lab.yml`'s (a mistake is named as `machines[n]…`).
 */
export function machinesFromFlags(flags: readonly string[]): LabMachine[] {
  const problems: string[] = [];
  const declared = flags.map((flag) => {
    const [name, ...pairs] = flag.split(",");
    const machine: Record<string, unknown> = { name };
    const nics: Record<string, unknown>[] = [];
    const disks: Record<string, unknown>[] = [];
    for (const pair of pairs) {
      const [key, value = ""] = pair.split("=", 2);
      if (key === "firmware" || key === "bmc") machine[key] = value;
      else if (key === "memory") machine.memoryMiB = /^\d{1,6}$/.test(value) ? Number(value) : value;
      else if (key === "nic") nics.push({ model: value });
      else if (key === "disk") {
        const [bus, size] = value.split(":", 2);
        disks.push({ bus, ...(size !== undefined && { sizeGiB: /^\d{1,4}$/.test(size) ? Number(size) : size }) });
      } else problems.push(`--machine ${flag}: ${JSON.stringify(key)} is not one of firmware, bmc, memory, nic, disk`);
    }
    if (nics.length > 0) machine.nics = nics;
    if (disks.length > 0) machine.disks = disks;
    return machine;
  });
  if (problems.length > 0) throw new LabFileError(problems, "--machine");
  try {
    return labMachines({ machines: declared });
  } catch (error) {
    throw error instanceof LabFileError ? new LabFileError(error.problems, "--machine") : error;
  }
}

/** `lab.yml`'s text → its machines (a YAML error is a problem of the file, with its line). */
export function parseLabFile(text: string): LabMachine[] {
  let document: unknown;
  try {
    document = parse(text, { maxAliasCount: 0 });
  } catch (error) {
    throw new LabFileError([`not YAML: ${(error as Error).message.split("\n")[0]}`]);
  }
  return labMachines(document);
}
