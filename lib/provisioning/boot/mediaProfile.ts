import { oneLine } from "../scriptValues";
import { GRUB_PROFILES, microkernelWords } from "./grub";
import type { ProfileContext } from "./ipxe";

/**
 * What a microkernel booted from virtual media (boot/virtualMedia.ts) asks once its network is up
 * (`/profiles?macs=<mac>&loader=media`): the rest of its kernel line for its workflow's step, as
 * GRUB's form of the profile has it (only the microkernel and the image install boot from the
 * image's kernel). Plain text, one line, read by busybox's sh (microkernel/init.sh):
 * `args <word> …` to go on with those words, or `message <text>` when there is nothing to boot yet
 * (the microkernel asks again) or at all. A word never holds a blank or a line break.
 */
export const mediaMessage = (text: string): string => `message ${oneLine(text)}\n`;

export function mediaProfile(name: string, context: ProfileContext): string {
  const profile = Object.hasOwn(GRUB_PROFILES, name) ? GRUB_PROFILES[name](context) : undefined;
  if (!profile)
    return mediaMessage(
      `The boot profile ${name} has no virtual media form: the image boots the microkernel (discovery, the image install)`,
    );
  return `args ${microkernelWords(context, profile.args).join(" ")}\n`;
}
