import { ValidationError } from "../../errors";
import { USER_DATA_MAX_BYTES } from "../cloudInit/instance";
import type { TaskDefinition } from "../graphs/graphTypes";

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

const isHttpUrl = (value: string): boolean => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);

/**
 * The options of today's install tasks, checked when the workflow starts (400, nothing stored):
 * what the installer puts on a command line must be what it says, not a way to run something else.
 */
export function checkInstallOptions(definition: TaskDefinition, options: Record<string, unknown>): void {
  const where = `task ${definition.injectableName}`;
  if (options.waitForFirstBoot !== undefined && typeof options.waitForFirstBoot !== "boolean") {
    throw new ValidationError(`waitForFirstBoot for ${where} must be true or false`);
  }
  if (definition.implementsTask === "Task.Base.Os.Install.Image") {
    const image = options.image;
    if (typeof image !== "string" || !(IMAGE_FILE.test(image) || isHttpUrl(image))) {
      throw new ValidationError(`image for ${where} must be a file store name or an http(s) URL`);
    }
    if (
      options.installDisk !== null &&
      options.installDisk !== undefined &&
      !(typeof options.installDisk === "string" && DISK.test(options.installDisk))
    ) {
      throw new ValidationError(`installDisk for ${where} must be a device path such as /dev/sda, or null for the first disk`);
    }
  }
  if (definition.implementsTask === "Task.Base.Os.Install.Repo" && !(typeof options.repo === "string" && isHttpUrl(options.repo))) {
    throw new ValidationError(`repo for ${where} must be an http(s) URL`);
  }
}
