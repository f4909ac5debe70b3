import type { ApiContext } from "../apiContext";
import { grubWord, oneLine } from "../scriptValues";
import { discoveryArgs, installScriptUrl, microkernelArgs, type ProfileContext } from "./ipxe";

/**
 * GRUB scripts, for UEFI machines with Secure Boot on (issue 38): their firmware runs only signed
 * code, so they boot Debian's shim (signed by the UEFI CA), then Debian's signed network GRUB,
 * which fetches its first script (`grub/grub.cfg`) and then its machine's own (`grub/machine/<mac>`,
 * by the MAC it booted from: the names are the wire's, lib/wire/relay.ts) over TFTP from its
 * site's relay; the relay asks this service for the machine's (`/profiles?loader=grub`). Debian's signed
 * GRUB has no HTTP, so what it loads comes over TFTP too: a URL of this service becomes
 * `(tftp)/<path>`, which the relay fetches for it. Under Secure Boot GRUB boots only a kernel
 * signed by a key shim trusts (Debian's): the microkernel and the image installer (both Debian's
 * kernel) have a GRUB form; any other profile answers a script that says why and leaves.
 */

/**
 * Leaves the network boot for the installed system: the loader at the firmware's fallback path of
 * a disk's EFI system partition (`EFI/BOOT/BOOTX64.EFI`, shim on the images this service installs),
 * chained through shim's verification; where no disk has one, GRUB exits. GRUB's `exit` alone is
 * not enough: it returns success, and edk2's boot manager (OVMF, and the firmware of many servers)
 * answers a boot option that returned success with its menu, not with its next device, so an
 * installed machine waited in its setup screen for someone to choose the disk.
 */
export const FALLBACK_LOADER = "/EFI/BOOT/BOOTX64.EFI";
const LEAVE = [
  "echo 'Leaving the network boot: booting the installed system on a disk of this machine, else the next device of the firmware'",
  "sleep 3",
  `search --no-floppy --file --set=installed ${FALLBACK_LOADER}`,
  'if [ -n "$installed" ]; then',
  `  chainloader ($installed)${FALLBACK_LOADER}`,
  "  boot",
  "fi",
  "exit",
];

const say = (text: string): string => `echo ${grubWord(oneLine(text))}`;

/** A script that says `message`, then leaves the network boot. */
export function grubMessageScript(message: string): string {
  return [say(message), ...LEAVE, ""].join("\n");
}

/**
 * A URL of this service as GRUB fetches it through the relay's TFTP: `(tftp)/<path>?<query>`;
 * undefined for a URL elsewhere (a mirror), which GRUB cannot reach.
 */
export function tftpPath(url: string, api: ApiContext): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const target = new URL(url);
  const ours = [api.server, api.fileServer].filter((server) => URL.canParse(server)).map((server) => new URL(server).origin);
  return ours.includes(target.origin) ? `(tftp)${target.pathname}${target.search}` : undefined;
}

/** Loads and boots a kernel and its initrd; says what failed and leaves otherwise. */
function bootKernel(title: string, kernel: string, initrd: string, args: readonly string[], what: string): string[] {
  return [
    say(title),
    `if linux ${[kernel, ...args].map(grubWord).join(" ")}; then`,
    `  if initrd ${grubWord(initrd)}; then`,
    "    boot",
    "  fi",
    "fi",
    say(`Could not load ${what} from ${kernel}`),
    ...LEAVE,
  ];
}

/** The profiles whose kernel is Debian's: the microkernel, alone or running the image install (virtual media boots the same two). */
export const GRUB_PROFILES: Record<string, (context: ProfileContext) => { title: string; args: string[]; what: string }> = {
  "linux.ipxe": (context) => ({
    title: `Starting the discovery microkernel for ${context.mac}`,
    args: discoveryArgs(context),
    what: "the discovery microkernel",
  }),
  "install-image.ipxe": (context) => ({
    title: `Starting the image installer for ${context.mac}`,
    args: [`INSTALL_SCRIPT=${installScriptUrl(context)}`],
    what: "the image installer",
  }),
};

/**
 * The microkernel's kernel line as words, with the profile's own. iPXE's initrd= argument names the
 * file its EFI stub loads; GRUB (and a microkernel from virtual media) has its initrd handed over.
 * Each is one word (GRUB quotes a word with a blank for the kernel).
 */
export const microkernelWords = (context: ProfileContext, args: readonly string[]): string[] =>
  [...microkernelArgs(context).args, ...args].flatMap((arg) => arg.split(" ")).filter((arg) => arg !== "" && !arg.startsWith("initrd="));

/** The task's boot profile as a GRUB script for the node; a script saying why for a profile with no GRUB form. */
export function grubProfileScript(name: string, context: ProfileContext): string {
  const profile = Object.hasOwn(GRUB_PROFILES, name) ? GRUB_PROFILES[name](context) : undefined;
  if (!profile) {
    return grubMessageScript(
      `The boot profile ${name} has no GRUB form: under Secure Boot only a kernel signed by Debian boots (the microkernel, the image install)`,
    );
  }
  const kernel = tftpPath(String(context.options.kernelUri ?? ""), context.api);
  const initrd = tftpPath(String(context.options.initrdUri ?? ""), context.api);
  if (!kernel || !initrd) {
    return grubMessageScript(
      `Cannot boot ${profile.what}: its kernelUri or initrdUri is not on this service, and GRUB fetches only through the relay by TFTP`,
    );
  }
  const args = microkernelWords(context, profile.args);
  return [...bootKernel(profile.title, kernel, initrd, args, profile.what), ""].join("\n");
}
