import { ValidationError } from "../../errors";
import { TFTP_FILES } from "../../wire/relay";
import type { ApiContext } from "../apiContext";
import { type Node, secureBootOf } from "../nodes/node";
import { oneLine } from "../scriptValues";
import { grubMessageScript } from "./grub";
import { discoveredScript, messageScript, redirectScript } from "./ipxe";
import { mediaMessage } from "./mediaProfile";

/**
 * Which network loader a machine's boot request is from: iPXE (the default, RackHD's), or GRUB
 * (`?loader=grub`: a UEFI machine with Secure Boot on, through its relay's TFTP; grub.ts).
 */
export const BOOT_LOADERS = ["ipxe", "grub"] as const;
export type BootLoader = (typeof BOOT_LOADERS)[number];

const isBootLoader = (value: unknown): value is BootLoader => BOOT_LOADERS.includes(value as BootLoader);

/** Who asks for a profile: a network loader, or a microkernel booted from virtual media (`media`: the rest of its kernel line, mediaProfile.ts). */
export type ProfileLoader = BootLoader | "media";

/** `?loader=`: absent or "ipxe" is iPXE, "grub" is GRUB, "media" a microkernel from virtual media; anything else (or two values) is a 400. */
export function parseLoader(values: readonly string[] | undefined): ProfileLoader {
  if (values === undefined || values.length === 0) return "ipxe";
  if (values.length === 1 && (isBootLoader(values[0]) || values[0] === "media")) return values[0] as ProfileLoader;
  throw new ValidationError(`loader must be ipxe, grub or media, once: ${oneLine(values.join(","))}`);
}

/** The scripts the profiles route answers with when no task profile is the answer, in each loader's language. */
export interface LoaderScripts {
  /** No MACs yet. */
  redirect: (api: ApiContext) => string;
  /** A new machine, recorded, with no discovery graph to run. */
  discovered: (nodeId: string, macs: readonly string[]) => string;
  /** Nothing to boot: the message, then the firmware's next device. */
  message: (text: string) => string;
}

export const LOADER_SCRIPTS: Record<ProfileLoader, LoaderScripts> = {
  media: {
    redirect: () => mediaMessage("A media profile request names its MAC (?macs=)"),
    discovered: (nodeId, macs) => mediaMessage(`Discovered node ${nodeId} (${macs.join(",")}). No workflow is active for this node`),
    message: mediaMessage,
  },
  ipxe: { redirect: redirectScript, discovered: discoveredScript, message: messageScript },
  grub: {
    // GRUB's request names its file by the MAC it booted from: it never comes without one.
    redirect: () => grubMessageScript(`GRUB's request named no MAC: its file is ${TFTP_FILES.grubMachine("<mac>")}`),
    discovered: (nodeId, macs) => grubMessageScript(`Discovered node ${nodeId} (${macs.join(",")}). No workflow is active for this node`),
    message: grubMessageScript,
  },
};

/** The file a UEFI machine's firmware loads for each loader, as the relay serves it from /common/. */
export const UEFI_LOADER_FILES = { ipxe: "snponly.efi", grub: "shimx64.efi" } as const satisfies Record<BootLoader, string>;

export interface LoaderChoice {
  loader: BootLoader;
  file: (typeof UEFI_LOADER_FILES)[BootLoader];
  /** What chose it: the node's `bootLoader`, its firmware's report of Secure Boot on, or the UEFI_LOADER setting. */
  because: "node" | "secure-boot" | "setting";
}

const choice = (loader: BootLoader, because: LoaderChoice["because"]): LoaderChoice => ({
  loader,
  file: UEFI_LOADER_FILES[loader],
  because,
});

/**
 * Which loader a UEFI machine gets: the one its node names; else GRUB for a machine whose firmware
 * reported Secure Boot on (it refuses iPXE); else the setting's (iPXE unless UEFI_LOADER says grub).
 */
export function chooseLoader(node: Node | undefined, setting: BootLoader): LoaderChoice {
  const named = node?.bootLoader;
  if (isBootLoader(named)) return choice(named, "node");
  if (secureBootOf(node) === "enabled") return choice("grub", "secure-boot");
  return choice(setting, "setting");
}
