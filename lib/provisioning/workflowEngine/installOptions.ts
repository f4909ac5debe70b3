import { ValidationError } from "../../errors";
import type { TaskDefinition } from "../graphs/graphTypes";
import { parseDiskRule } from "../installDisk";
import { USER_DATA_MAX_BYTES } from "../recordSize";
import { isHttpUrl } from "../scriptValues";

/**
 * An install task's `userData` option: the user-data its installed system gets in place of the
 * node's. Kept on the workflow (not in its options, which are answered), as its boot token is.
 */
export function installUserData(options: Record<string, unknown>): string | undefined {
  const value = options.userData;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || Buffer.byteLength(value) > USER_DATA_MAX_BYTES) {
    throw new ValidationError(`userData must be text of at most ${USER_DATA_MAX_BYTES} bytes`);
  }
  return value;
}

const IMAGE_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;
const DISK = /^\/dev\/[A-Za-z0-9][A-Za-z0-9/_-]{0,63}$/;

/** A word an installer's line may hold as it is: a host name, a version, a device, a serial port, a file name. */
const WORD = /^[A-Za-z0-9][A-Za-z0-9._:/+@-]{0,254}$/;
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*$/;

/**
 * The options an install renders into a script, kernel line, kickstart, preseed or cloud-config,
 * and what each must be (issue 35 §5). A value of another form is refused when the workflow
 * starts; the rendering quotes each for its language as well (scriptValues.ts).
 */
const RENDERED: Record<string, { test: (value: string) => boolean; is: string }> = {
  hostname: { test: (value) => HOST.test(value) && value.length <= 253, is: "a host name" },
  domain: { test: (value) => HOST.test(value) && value.length <= 253, is: "a domain name" },
  version: { test: (value) => WORD.test(value), is: "a version (letters, digits, . _ : + - /)" },
  comport: { test: (value) => /^tty[A-Za-z]{0,8}\d{1,3}$/.test(value), is: "a serial port such as ttyS0" },
  iso: { test: (value) => WORD.test(value), is: "a file name" },
  // A device path starts with its slash: /dev/sda as well as sda.
  installDisk: { test: (value) => WORD.test(value.replace(/^\//, "")), is: "a disk such as /dev/sda, sda or firstdisk" },
  repo: { test: isHttpUrl, is: "an http(s) URL" },
  kernelUri: { test: isHttpUrl, is: "an http(s) URL" },
  initrdUri: { test: isHttpUrl, is: "an http(s) URL" },
};

function checkRenderedOptions(where: string, options: Record<string, unknown>): void {
  for (const [name, rule] of Object.entries(RENDERED)) {
    const value = options[name];
    if (value === undefined || value === null) continue;
    const text = typeof value === "number" && Number.isFinite(value) ? String(value) : value;
    if (typeof text !== "string" || !rule.test(text)) throw new ValidationError(`${name} for ${where} must be ${rule.is}`);
  }
}

/**
 * The options of today's install tasks, checked when the workflow starts (400, nothing stored):
 * what the installer puts on a command line must be what it says, not a way to run something else.
 */
export function checkInstallOptions(definition: TaskDefinition, options: Record<string, unknown>): void {
  const where = `task ${definition.injectableName}`;
  // A rule picks the disk from the node's catalog when the script renders (boot/installDisk.ts).
  const diskRule = parseDiskRule(options.installDisk, where);
  checkRenderedOptions(where, diskRule ? { ...options, installDisk: undefined } : options);
  if (options.waitForFirstBoot !== undefined && typeof options.waitForFirstBoot !== "boolean") {
    throw new ValidationError(`waitForFirstBoot for ${where} must be true or false`);
  }
  if (definition.implementsTask === "Task.Base.Os.Install.Image") {
    const image = options.image;
    if (typeof image !== "string" || !(IMAGE_FILE.test(image) || isHttpUrl(image))) {
      throw new ValidationError(`image for ${where} must be a file store name or an http(s) URL`);
    }
    if (
      !diskRule &&
      options.installDisk !== null &&
      options.installDisk !== undefined &&
      !(typeof options.installDisk === "string" && DISK.test(options.installDisk))
    ) {
      throw new ValidationError(`installDisk for ${where} must be a device path such as /dev/sda, a rule, or null for the first disk`);
    }
  }
  if (definition.implementsTask === "Task.Base.Os.Install.Repo" && !(typeof options.repo === "string" && isHttpUrl(options.repo))) {
    throw new ValidationError(`repo for ${where} must be an http(s) URL`);
  }
}
