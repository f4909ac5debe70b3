import { machineFunctions, SEED_CONFIG_PATH, seedConfig } from "../cloudInit/seedConfig";
import { isHttpUrl, lineToken, oneLine, shellWord } from "../scriptValues";
import { instanceIn, type ProfileContext } from "./ipxe";

/**
 * The install scripts of today's installs (issue 26). Each reports its start and its end to the
 * service in cloud-init's webhook format, uploads the installer's log when it ends (failed or
 * not), and points the installed system's cloud-init at the node's seed (SEED_CONFIG_PATH).
 */

/** Where the image is read from: a file store name (this service's /files) or a URL as given. */
const imageUrl = ({ options, api }: ProfileContext): string => {
  const image = String(options.image);
  return isHttpUrl(image) ? lineToken(image) : `${api.files}/${lineToken(image)}`;
};

/**
 * How the installer unpacks an image on its way to the disk, by the ending of its name (a URL's
 * path, its query aside): busybox's gunzip, unxz and bunzip2, or Debian's zstd, which the
 * microkernel carries (`--long=31`: an image compressed with a long window unpacks too). Any
 * other image is written as it comes.
 */
const UNPACKERS: readonly (readonly [string, string])[] = [
  [".gz", "gunzip -c"],
  [".zst", "zstd -dcq --long=31"],
  [".xz", "unxz -c"],
  [".bz2", "bunzip2 -c"],
];
export const unpacker = (image: string): string => {
  const name = isHttpUrl(image) ? new URL(image).pathname : image;
  return UNPACKERS.find(([ending]) => name.endsWith(ending))?.[1] ?? "cat";
};

/**
 * The image installer (busybox sh, in the product's microkernel): writes the image to the disk,
 * finds the partition that holds /etc/cloud, writes the seed config into it, reports, reboots.
 * Every option it uses is assigned once, at the top, as a quoted word (scriptValues.ts); the rest
 * of the script names only those variables, so it is the same text whatever the options say.
 */
function imageInstallScript(context: ProfileContext): string {
  const { options, nodeId } = context;
  const instance = instanceIn(context);
  const unzip = unpacker(String(options.image));
  return [
    "#!/bin/sh",
    `# Image install for node ${lineToken(nodeId)}: the image to the disk, then cloud-init from the node's seed.`,
    `image=${shellWord(oneLine(options.image))}`,
    `image_url=${shellWord(imageUrl(context))}`,
    `disk=${shellWord(options.installDisk ? oneLine(options.installDisk) : "")}`,
    `disk_serial=${shellWord(options._installDiskSerial ? oneLine(options._installDiskSerial) : "")}`,
    `disk_size=${shellWord(options._installDiskSize ? oneLine(options._installDiskSize) : "")}`,
    "set -o pipefail",
    ...machineFunctions(instance.reportUrl),
    ...imageInstallBody(unzip),
    `mkdir -p /mnt/etc/cloud/cloud.cfg.d && printf '%s' ${shellWord(seedConfig(instance.seedUrl, instance.network))} > /mnt${SEED_CONFIG_PATH} || die "could not write the seed config on $root"`,
    'umount /mnt; sync; log "installed on $disk (cloud-init on $root)"',
    "upload_log installer $LOG",
    "report finish install SUCCESS 'The image installer wrote the system'",
    "reboot -f",
    "",
  ].join("\n");
}

/**
 * What the image installer does with its variables (`image`, `image_url`, `disk`, and the chosen
 * disk's `disk_serial` and `disk_size`): the same text for any options. A disk chosen by a rule is
 * found again by its serial and size (read as the microkernel's discovery reads them), since its
 * name at discovery may be another disk's now.
 */
const imageInstallBody = (unzip: string): string[] => [
  "LOG=/tmp/install.log",
  'log() { echo "INSTALLER: $*"; echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $*" >> $LOG; }',
  'die() { log "FAILED: $*"; upload_log installer $LOG; report finish install FAIL "$*"; sleep 2; poweroff -f; }',
  "report start install '' 'The image installer started'",
  'if [ -n "$disk_serial" ]; then',
  "  found=''",
  "  for d in /sys/block/*; do",
  '    [ "$(($(cat "$d/size" 2>/dev/null || echo 0) * 512))" = "$disk_size" ] || continue',
  '    serial=$(cat "$d/device/serial" 2>/dev/null)',
  `    [ -n "$serial" ] || serial=$(tail -c +5 "$d/device/vpd_pg80" 2>/dev/null | tr -d '\\000')`,
  '    [ "$(echo $serial)" = "$disk_serial" ] && found=/dev/${d##*/} && break',
  "  done",
  '  [ -n "$found" ] || die "the chosen disk (serial $disk_serial, $disk_size bytes; $disk at discovery) is not on this machine now"',
  '  [ "$found" = "$disk" ] || log "the chosen disk (serial $disk_serial) is $found now ($disk at discovery)"',
  "  disk=$found",
  "fi",
  'if [ -z "$disk" ]; then for d in /sys/block/vd? /sys/block/sd? /sys/block/nvme?n1; do [ -e "$d" ] && disk=/dev/${d##*/} && break; done; fi',
  '[ -b "$disk" ] || die "no disk to install to (${disk:-none found})"',
  'log "writing $image to $disk"',
  // A download cut short (a network, a proxy or a store that drops a long stream) is tried again,
  // from the start: the disk is written whole each time, so a partial write is never left as done.
  "tries=1",
  `until wget -q -O - "$image_url" | ${unzip} | dd of="$disk" bs=1M 2>> $LOG; do`,
  '  [ $tries -lt 3 ] || die "could not write $image to $disk (3 tries)"',
  '  log "writing $image to $disk failed (try $tries of 3): trying again"; tries=$((tries + 1)); sleep 5',
  "done",
  "sync",
  // The kernel reads the new partition table; then each partition is tried for the installed system's /etc/cloud.
  'blockdev --rereadpt "$disk" 2>> $LOG; sleep 1; mkdir -p /mnt; root=""',
  'for part in "${disk}"[0-9]* "${disk}"p[0-9]*; do',
  '  [ -b "$part" ] || continue',
  '  if mount "$part" /mnt 2>/dev/null; then [ -d /mnt/etc/cloud ] && root=$part && break; umount /mnt; fi',
  "done",
  '[ -n "$root" ] || die "the image has no partition with /etc/cloud (is cloud-init installed in it?)"',
];

/**
 * A script as one line that writes it to `file` and runs it: a preseed value is one line, so its
 * newlines and backslashes become printf's `%b` escapes.
 */
const oneLineScript = (script: string, file: string): string =>
  `printf '%b' ${shellWord(script.replace(/\\/g, "\\\\").replace(/\n/g, "\\n"))} > ${file}; sh ${file}`;

/**
 * Debian (12) preseed: cloud-init and curl installed, the root login off (the node's keys are
 * the login, through cloud-init), the seed config written into the target, the install reported.
 * d-i has no hook for its own failure: a failed d-i stops at its prompt and goes silent, which the
 * service reports as `installer-silent` with the time of its start.
 */
function debianPreseed(context: ProfileContext): string {
  const { options, nodeId } = context;
  const instance = instanceIn(context);
  const functions = machineFunctions(instance.reportUrl).join("\n");
  const early = `${functions}\nreport start install '' 'The Debian installer started'`;
  const late = [
    functions,
    `mkdir -p /target/etc/cloud/cloud.cfg.d && printf '%s' ${shellWord(seedConfig(instance.seedUrl, instance.network))} > /target${SEED_CONFIG_PATH}`,
    "upload_log installer /var/log/syslog",
    "report finish install SUCCESS 'The Debian installer wrote the system'",
  ].join("\n");
  // The repository as d-i asks for it: host, then directory (a library placeholder stays as it is).
  const repo = String(options.repo);
  const mirror = URL.canParse(repo) ? new URL(repo) : { host: repo, pathname: "" };
  return [
    `# Debian preseed for node ${nodeId}`,
    "d-i debian-installer/locale string en_US.UTF-8",
    "d-i keyboard-configuration/xkb-keymap select us",
    "d-i netcfg/choose_interface select auto",
    `d-i netcfg/get_hostname string ${lineToken(options.hostname ?? "debian")}`,
    "d-i netcfg/get_domain string local",
    "d-i mirror/country string manual",
    `d-i mirror/http/hostname string ${lineToken(mirror.host)}`,
    `d-i mirror/http/directory string ${lineToken(mirror.pathname)}`,
    "d-i mirror/http/proxy string",
    "d-i passwd/root-login boolean false",
    "d-i passwd/make-user boolean false",
    "d-i clock-setup/utc boolean true",
    "d-i time/zone string Etc/UTC",
    `d-i partman-auto/disk string ${lineToken(options.installDisk ?? "")}`,
    "d-i partman-auto/method string regular",
    "d-i partman-auto/choose_recipe select atomic",
    "d-i partman-partitioning/confirm_write_new_label boolean true",
    "d-i partman/choose_partition select finish",
    "d-i partman/confirm boolean true",
    "d-i partman/confirm_nooverwrite boolean true",
    "tasksel tasksel/first multiselect standard, ssh-server",
    "d-i pkgsel/include string cloud-init curl",
    "d-i grub-installer/only_debian boolean true",
    "d-i grub-installer/bootdev string default",
    `d-i preseed/early_command string ${oneLineScript(early, "/tmp/report-start.sh")}`,
    `d-i preseed/late_command string ${oneLineScript(late, "/tmp/report-end.sh")}`,
    "d-i finish-install/reboot_in_progress note",
    "",
  ].join("\n");
}

/**
 * Rocky / Alma Linux 9 kickstart: cloud-init from the distribution, the seed config written by
 * %post, the start reported by %pre, a failure by %onerror with anaconda's logs, the end by %post.
 */
function el9Kickstart(context: ProfileContext): string {
  const { options, nodeId } = context;
  const instance = instanceIn(context);
  const functions = machineFunctions(instance.reportUrl);
  const disk = options.installDisk ? lineToken(options.installDisk) : "";
  return [
    `# Rocky/Alma Linux 9 kickstart for node ${nodeId}`,
    "text",
    `url --url=${lineToken(options.repo)}`,
    "lang en_US.UTF-8",
    "keyboard us",
    "network --bootproto=dhcp --activate",
    "rootpw --lock",
    "firewall --enabled --service=ssh",
    "selinux --enforcing",
    "timezone Etc/UTC --utc",
    ...(disk ? [`ignoredisk --only-use=${disk}`] : []),
    `bootloader --append="console=${lineToken(options.comport)},115200n8"`,
    "zerombr",
    "clearpart --all --initlabel",
    "autopart",
    "reboot",
    "",
    "%packages",
    "@core",
    "cloud-init",
    "curl",
    "%end",
    "",
    "%pre",
    ...functions,
    "report start install '' 'The EL9 installer started'",
    "%end",
    "",
    "%onerror",
    ...functions,
    "cat /tmp/anaconda.log /tmp/storage.log /tmp/packaging.log > /tmp/installer.log 2>/dev/null",
    "upload_log installer /tmp/installer.log",
    "report finish install FAIL 'anaconda stopped on an error: see the installer log'",
    "%end",
    "",
    "%post",
    `mkdir -p /etc/cloud/cloud.cfg.d && printf '%s' ${shellWord(seedConfig(instance.seedUrl, instance.network))} > ${SEED_CONFIG_PATH}`,
    "%end",
    "",
    "%post --nochroot",
    ...functions,
    "upload_log installer /tmp/anaconda.log",
    "report finish install SUCCESS 'The EL9 installer wrote the system'",
    "%end",
    "",
  ].join("\n");
}

export const CLOUD_INIT_TEMPLATES: Record<string, (context: ProfileContext) => string> = {
  "install-image.sh": imageInstallScript,
  "debian-preseed": debianPreseed,
  "el9-ks": el9Kickstart,
};
