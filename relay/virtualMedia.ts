import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { isSharedFilePath, MEDIA_PATH, MEDIA_WORD, MEDIA_WORDS_MAX, type MediaBoot } from "../lib/wire/relay";
import { askService, type BootProxyOptions } from "./bootProxy";
import { sharedFiles } from "./sharedFiles";

/**
 * Virtual media (issue 53): a site whose DHCP cannot be changed boots its machines from an image
 * its BMC inserts. For each insert the relay builds a small ISO 9660 image from Debian's tools, as
 * a distribution's installer CD is made:
 * - the microkernel's kernel and initrd, fetched from the service (shared files, as TFTP serves them);
 * - `boot/grub/grub.cfg`: one entry that boots them with the job's kernel line and API_BASE, the
 *   relay's boot server (where the microkernel asks for the rest of its line: its workflow's step);
 * - BIOS: GRUB's El Torito image (`grub-mkimage -O i386-pc-eltorito`, package grub-pc-bin);
 * - UEFI: a FAT image (dosfstools, mtools) holding Debian's signed shim as `EFI/BOOT/BOOTX64.EFI` and
 *   Debian's signed CD GRUB as `grubx64.efi` beside it (the service's /common/shimx64.efi and
 *   /common/grubcdx64.efi, which `npm run microkernel` publishes), so a machine with Secure Boot on
 *   boots it as one with it off does; that GRUB finds the CD by `/.disk/info` and reads the same
 *   grub.cfg. Whenever the service has them: a new machine's firmware is not known before discovery;
 *   the files are kept a minute (relay/sharedFiles.ts), as TFTP keeps them;
 * - `xorriso -as mkisofs` puts both boot images on one CD.
 * The image is served by the relay's boot server at `/media/<128 random bits>.iso` (with byte
 * ranges, as BMCs read it) until the node's next image replaces it; the name is not guessable, and
 * nothing in it is secret (the machine's boot token comes later, from the service).
 */
export interface MediaLibrary {
  /** Builds the node's image and serves it; answers its URL (the BMC fetches it). */
  publish: (node: string, boot: MediaBoot, uefi: boolean) => Promise<string>;
  /** The node's image no longer served. */
  withdraw: (node: string) => void;
  /** Answers a request for an image; false when the path is not one. */
  serve: (request: IncomingMessage, response: ServerResponse) => boolean;
  close: () => void;
}

export interface MediaOptions extends Pick<BootProxyOptions, "api" | "token" | "log"> {
  /** The relay's boot server as the machines and their BMCs reach it (--public-url). */
  publicUrl: string;
  /** Where images are built (default: a new folder under the system's temporary one). */
  dir?: string;
  /** Programs (tests give stand-ins that fail); default the Debian packages' own. */
  programs?: Partial<typeof PROGRAMS>;
}

const PROGRAMS = { xorriso: "xorriso", grubMkimage: "grub-mkimage", mkfsVfat: "mkfs.vfat", mmd: "mmd", mcopy: "mcopy" };
const run = promisify(execFile);
/** The GRUB modules the BIOS image carries (its dependencies come with them). */
const BIOS_MODULES = ["biosdisk", "iso9660", "normal", "configfile", "linux", "echo", "test", "search"];
/** The signed loaders a UEFI image carries, by the service's /common/ names and their names on the image. */
const UEFI_FILES = [
  { common: "shimx64.efi", as: "BOOTX64.EFI" },
  { common: "grubcdx64.efi", as: "grubx64.efi" },
];
/** The most images served at once (one per node; a site boots a few dozen at a time at most). */
const MAX_IMAGES = 64;

/** The kernel line's words, each checked: a word GRUB or the kernel would split or expand is refused. */
export function mediaArgs(boot: MediaBoot, apiBase: string): string[] {
  const words = [...boot.args, `API_BASE=${apiBase}`];
  if (words.length > MEDIA_WORDS_MAX) throw new Error(`A media kernel line has at most ${MEDIA_WORDS_MAX} words`);
  const bad = words.find((word) => !MEDIA_WORD.test(word));
  if (bad !== undefined) throw new Error(`A media kernel line's word has a character GRUB would read: ${JSON.stringify(bad.slice(0, 80))}`);
  return words;
}

/** GRUB's configuration on the image: the microkernel, at once. */
export const grubConfig = (args: readonly string[]): string =>
  [
    "set timeout=0",
    "echo 'Starting the microkernel from virtual media'",
    `linux /boot/vmlinuz ${args.join(" ")}`,
    "initrd /boot/initrd.img",
    "boot",
    "",
  ].join("\n");

export function mediaLibrary(options: MediaOptions): MediaLibrary {
  const programs = { ...PROGRAMS, ...options.programs };
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "relay-media-"));
  /** By image name: its file; by node: its image's name. */
  const files = new Map<string, string>();
  const byNode = new Map<string, string>();
  const base = options.publicUrl.replace(/\/$/, "");

  // The same kernel, initrd and loaders for every image: fetched once a minute, not per image.
  const shared = sharedFiles();
  const fetchFile = async (path: string, to: string) => {
    if (!isSharedFilePath(path.split("?")[0])) throw new Error(`${path} is not one of the service's shared files`);
    const bytes = await shared(path, async () => {
      const answer = await askService(options, path, { machine: "", base });
      if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
      return Buffer.from(await answer.arrayBuffer());
    });
    writeFileSync(to, bytes);
  };

  const withdraw = (node: string) => {
    const name = byNode.get(node);
    if (name === undefined) return;
    byNode.delete(node);
    rmSync(files.get(name) ?? "", { force: true });
    files.delete(name);
  };

  const build = async (boot: MediaBoot, uefi: boolean, iso: string) => {
    const work = mkdtempSync(join(dir, "build-"));
    try {
      const root = join(work, "root");
      mkdirSync(join(root, "boot", "grub"), { recursive: true });
      mkdirSync(join(root, ".disk"));
      writeFileSync(join(root, ".disk", "info"), "Provisioning microkernel (virtual media)\n");
      writeFileSync(join(root, "boot", "grub", "grub.cfg"), grubConfig(mediaArgs(boot, `${base}/api/current`)));
      await fetchFile(boot.kernel, join(root, "boot", "vmlinuz"));
      await fetchFile(boot.initrd, join(root, "boot", "initrd.img"));
      await run(programs.grubMkimage, [
        "-O",
        "i386-pc-eltorito",
        "-p",
        "/boot/grub",
        "-o",
        join(root, "boot", "grub", "bios.img"),
        ...BIOS_MODULES,
      ]);
      const eltorito = ["-b", "boot/grub/bios.img", "-no-emul-boot", "-boot-load-size", "4", "-boot-info-table", "--grub2-boot-info"];
      // UEFI's boot image whenever the service has the signed loaders: a new machine's firmware is not
      // known before its discovery. Without them only a machine known to boot by UEFI is refused.
      const efi = join(root, "boot", "efi.img");
      const loaders = await Promise.all(
        UEFI_FILES.map((file) =>
          fetchFile(`/common/${file.common}`, join(work, file.as)).then(
            () => true,
            (error: Error) => error,
          ),
        ),
      );
      const missing = loaders.find((each): each is Error => each instanceof Error);
      if (missing && uefi)
        throw new Error(`${missing.message}: a UEFI machine's image needs the signed loaders (npm run microkernel publishes them)`);
      if (!missing) {
        // The FAT image as large as the loaders need, with room for FAT's own tables (KiB).
        const loaderKiB = UEFI_FILES.reduce((sum, file) => sum + Math.ceil(statSync(join(work, file.as)).size / 1024), 0);
        await run(programs.mkfsVfat, ["-C", "-n", "EFIBOOT", efi, String(loaderKiB + 512)]);
        await run(programs.mmd, ["-i", efi, "::/EFI", "::/EFI/BOOT"]);
        for (const file of UEFI_FILES) await run(programs.mcopy, ["-i", efi, join(work, file.as), `::/EFI/BOOT/${file.as}`]);
        eltorito.push("-eltorito-alt-boot", "-e", "boot/efi.img", "-no-emul-boot");
      }
      await run(programs.xorriso, ["-as", "mkisofs", "-quiet", "-o", iso, "-V", "MICROKERNEL", "-r", "-J", ...eltorito, root]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };

  return {
    publish: async (node, boot, uefi) => {
      if (byNode.size >= MAX_IMAGES && !byNode.has(node)) throw new Error(`This relay serves ${MAX_IMAGES} images already`);
      const name = randomBytes(16).toString("hex");
      const iso = join(dir, `${name}.iso`);
      const started = Date.now();
      await build(boot, uefi, iso).catch((error: Error & { stderr?: string }) => {
        rmSync(iso, { force: true });
        throw new Error(
          `building the boot image: ${error.message.split("\n")[0]}${error.stderr ? ` (${error.stderr.trim().slice(-300)})` : ""}`,
        );
      });
      withdraw(node);
      files.set(name, iso);
      byNode.set(node, name);
      options.log?.(`media: built ${statSync(iso).size} bytes for node ${node} in ${Date.now() - started} ms`);
      return `${base}/media/${name}.iso`;
    },
    withdraw,
    serve: (request, response) => {
      const name = MEDIA_PATH.exec(new URL(request.url ?? "/", "http://relay").pathname)?.[1];
      if (name === undefined) return false;
      const file = files.get(name);
      if (!file || !["GET", "HEAD"].includes(request.method ?? "")) {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ message: "No such image" }));
        return true;
      }
      serveFile(file, request, response);
      return true;
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A file with one byte range (`Range: bytes=a-b`, `a-`, `-n`), as a BMC reads a remote image; 416 for a range outside it. */
export function serveFile(file: string, request: IncomingMessage, response: ServerResponse): void {
  const size = statSync(file).size;
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? ""));
  let start = 0;
  let end = size - 1;
  const ranged = range !== null && (range[1] !== "" || range[2] !== "");
  if (ranged) {
    start = range[1] === "" ? Math.max(0, size - Number(range[2])) : Number(range[1]);
    end = range[1] !== "" && range[2] !== "" ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start > end || start >= size) {
      response.writeHead(416, { "content-range": `bytes */${size}` }).end();
      return;
    }
  }
  const headers = {
    "content-type": "application/octet-stream",
    "content-length": String(end - start + 1),
    "accept-ranges": "bytes",
    ...(ranged && { "content-range": `bytes ${start}-${end}/${size}` }),
  };
  response.writeHead(ranged ? 206 : 200, headers);
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  createReadStream(file, { start, end }).pipe(response);
}
