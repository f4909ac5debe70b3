import { ValidationError } from "../errors";

/**
 * The disk an install writes, chosen by a rule the operator gives in the install task's
 * `installDisk` option in place of a device name (issue 37): the service picks the disk from the
 * node's lshw catalog (what the microkernel found) when the machine fetches its install script.
 *
 * - `{"smallest": true}`: the smallest non-removable disk;
 * - `{"model": "…"}`: the disk's model as the catalog gives it (spaces and case ignored at the ends);
 * - `{"byId": "…"}`: its /dev/disk/by-id name as udev makes it (`ata-<model>_<serial>`,
 *   `nvme-<model>_<serial>`, `virtio-<serial>`; spaces in the model become `_`);
 * - `{"minSize": …, "maxSize": …}`: its size within bounds, in bytes or as "500GB", "1.5TB" (powers
 *   of 1000) or "512GiB" (powers of 1024).
 *
 * The fields can be combined (all must hold). Removable disks are never chosen; of the disks that
 * match, the smallest is (the first by name when two are the same size).
 */
export interface DiskRule {
  smallest?: true;
  model?: string;
  byId?: string;
  minSize?: number;
  maxSize?: number;
}

/** A disk as the microkernel's lshw catalog lists it (class "disk"). */
export interface CatalogDisk {
  logicalname: string;
  size: number;
  product: string;
  vendor: string;
  serial: string;
  driver: string;
  removable: boolean;
}

const RULE_FIELDS = ["smallest", "model", "byId", "minSize", "maxSize"] as const;
const SIZE = /^(\d{1,15}(?:\.\d{1,6})?) ?([KMGTP]i?B|B)?$/;
const UNITS: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, PB: 1e15 };
const BINARY: Record<string, number> = { KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40, PiB: 2 ** 50 };
const TEXT_MAX = 128;

/** A size in bytes from a number of bytes or a text such as "500GB" or "512 GiB"; undefined when it is neither. */
export function parseSize(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const match = SIZE.exec(value.trim());
  if (!match) return undefined;
  const unit = match[2] ?? "B";
  const factor = UNITS[unit] ?? BINARY[unit];
  return factor === undefined ? undefined : Math.round(Number(match[1]) * factor);
}

const isRule = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The rule an installDisk option holds, or undefined when it holds a device name (or nothing).
 * A rule of another shape is refused naming what is wrong (400 when the workflow starts).
 */
export function parseDiskRule(value: unknown, where: string): DiskRule | undefined {
  if (!isRule(value)) return undefined;
  const refuse = (what: string) =>
    new ValidationError(
      `installDisk for ${where} ${what}: give a device name, or a rule of smallest (true), model, byId, minSize, maxSize (see docs/boot.md)`,
    );
  const unknown = Object.keys(value).filter((key) => !(RULE_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) throw refuse(`has no field ${unknown.join(", ")}`);
  if (Object.keys(value).length === 0) throw refuse("is an empty rule");
  const rule: DiskRule = {};
  if (value.smallest !== undefined) {
    if (value.smallest !== true) throw refuse("says smallest other than true");
    rule.smallest = true;
  }
  for (const field of ["model", "byId"] as const) {
    if (value[field] === undefined) continue;
    const text = value[field];
    if (typeof text !== "string" || text.trim() === "" || text.length > TEXT_MAX)
      throw refuse(`has a ${field} that is not a text of 1 to ${TEXT_MAX} characters`);
    rule[field] = text.trim();
  }
  for (const field of ["minSize", "maxSize"] as const) {
    if (value[field] === undefined) continue;
    const bytes = parseSize(value[field]);
    if (bytes === undefined) throw refuse(`has a ${field} that is neither a number of bytes nor a size such as "500GB" or "512GiB"`);
    rule[field] = bytes;
  }
  if (rule.minSize !== undefined && rule.maxSize !== undefined && rule.minSize > rule.maxSize)
    throw refuse("has a minSize over its maxSize");
  return rule;
}

/** A disk's /dev/disk/by-id name as udev makes it, for the buses whose names come from the disk alone. */
export function byIdName(disk: CatalogDisk): string | undefined {
  const word = (text: string) => text.trim().replace(/\s+/g, "_");
  if (disk.serial.trim() === "") return undefined;
  if (disk.driver === "nvme") return `nvme-${word(disk.product)}_${word(disk.serial)}`;
  if (disk.driver === "virtio_blk") return `virtio-${word(disk.serial)}`;
  if (disk.vendor.trim() === "ATA") return `ata-${word(disk.product)}_${word(disk.serial)}`;
  return undefined;
}

const matches = (rule: DiskRule, disk: CatalogDisk): boolean =>
  !disk.removable &&
  (rule.model === undefined || disk.product.trim().toLowerCase() === rule.model.toLowerCase()) &&
  (rule.byId === undefined || byIdName(disk) === rule.byId) &&
  (rule.minSize === undefined || disk.size >= rule.minSize) &&
  (rule.maxSize === undefined || disk.size <= rule.maxSize);

/** The disk the rule picks, or undefined when none matches. */
export function chooseDisk(rule: DiskRule, disks: readonly CatalogDisk[]): CatalogDisk | undefined {
  return disks
    .filter((disk) => matches(rule, disk))
    .sort((a, b) => a.size - b.size || (a.logicalname < b.logicalname ? -1 : a.logicalname > b.logicalname ? 1 : 0))[0];
}

/** The disks of an lshw catalog's data (the microkernel's shape: children of class "disk"); others are skipped. */
export function catalogDisks(lshw: unknown): CatalogDisk[] {
  const children = isRule(lshw) && Array.isArray(lshw.children) ? lshw.children : [];
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  return children.flatMap((child: unknown) => {
    if (!isRule(child) || child.class !== "disk" || typeof child.logicalname !== "string") return [];
    const size = Number(child.size);
    if (!/^\/dev\/[A-Za-z0-9]{1,32}$/.test(child.logicalname) || !Number.isSafeInteger(size)) return [];
    const configuration = isRule(child.configuration) ? child.configuration : {};
    return [
      {
        logicalname: child.logicalname,
        size,
        product: text(child.product),
        vendor: text(child.vendor),
        serial: text(child.serial),
        driver: text(configuration.driver),
        removable: configuration.removable === "yes",
      },
    ];
  });
}

/** How a rule and the disks it did not find read in a failure. */
export const describeDisks = (disks: readonly CatalogDisk[]): string =>
  disks.length === 0
    ? "none"
    : disks
        .map(
          (disk) =>
            `${disk.logicalname} (${disk.size} bytes${disk.product ? `, ${disk.product.trim().slice(0, 64)}` : ""}${disk.removable ? ", removable" : ""})`,
        )
        .join(", ");
