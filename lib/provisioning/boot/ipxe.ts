import type { ApiContext } from "../apiContext";
import { bootQuery } from "../bootToken";
import type { MachineCredential } from "../cloudInit/instanceService";
import { lineToken, oneLine } from "../scriptValues";
import { TIMER_CHECK_OFF } from "./kernelArgs";

/**
 * iPXE scripts served to booting machines (RackHD's data/profiles, rewritten). Every option put
 * into a script is one inert token (scriptValues.ts's lineToken), so it cannot add a command, an
 * argument or an expansion to it; the service's own values are made one line.
 */
const header = (): string[] => ["#!ipxe", "set user-class MonoRail"];

/**
 * Every script ends each of its paths itself. A chained script that ends with `exit` makes
 * `chain` return success, so the line after `chain` runs next: without its own `exit` there, a
 * script falls into whatever follows (once, a failure message that was not true).
 */
const LEAVE = ["echo Leaving the network boot: the firmware boots its next device", "exit"];

/** No MACs yet: collect the machine's MACs and come back with ?macs=. */
export function redirectScript(api: ApiContext): string {
  return [
    ...header(),
    "echo Collecting MAC addresses",
    "set query macs=${net0/mac:hex}",
    ...[1, 2, 3, 4, 5, 6, 7].map((n) => `isset \${net${n}/mac} && set query \${query}&macs=\${net${n}/mac:hex} ||`),
    `chain --autofree ${oneLine(api.profiles)}?\${query} || goto failed`,
    "exit",
    ":failed",
    "echo Could not fetch this machine's boot script from the provisioning service",
    "sleep 5",
    ...LEAVE,
    "",
  ].join("\n");
}

/** A new machine was just discovered: it leaves the network boot until a workflow is started for it. */
export function discoveredScript(nodeId: string, macs: readonly string[]): string {
  return [
    ...header(),
    `echo Discovered node ${nodeId} (${macs.map(oneLine).join(",")})`,
    "echo No workflow is active for this node",
    ...LEAVE,
    "",
  ].join("\n");
}

/** The node is known but nothing is to be done: RackHD's message, then out of the network boot at once. */
export function messageScript(message: string): string {
  return [...header(), `echo ${oneLine(message)}`, ...LEAVE, ""].join("\n");
}

export interface ProfileContext {
  options: Record<string, unknown>;
  api: ApiContext;
  nodeId: string;
  mac: string;
  /** The workflow's boot token (see bootToken.ts). */
  token?: string;
  /** The machine's credential, for the profiles and templates that name it (NEEDS_INSTANCE). */
  instance?: MachineCredential;
}

/** The built-in profiles and templates that carry the machine's seed URL and report URL. */
export const NEEDS_INSTANCE: ReadonlySet<string> = new Set([
  "install-image.ipxe",
  "install-ubuntu-autoinstall.ipxe",
  "install-debian.ipxe",
  "install-el9.ipxe",
  "install-image.sh",
  "debian-preseed",
  "el9-ks",
]);

/** The credential a profile or template that NEEDS_INSTANCE renders with (the boot service always gives one). */
export function instanceIn(context: ProfileContext): MachineCredential {
  if (!context.instance) throw new Error("A cloud-init profile or template was rendered without the machine's credential");
  return context.instance;
}

export const installScriptUrl = ({ options, api, nodeId, token }: ProfileContext): string =>
  `${api.templates}/${lineToken(options.installScript)}?${bootQuery(nodeId, token)}`;

/**
 * The kernel's consoles: the serial one (`comport`, RackHD's option) and the screen. The last one
 * named is the installer's console, so the serial one goes last (a server's or a VM's usual
 * console) unless the workflow's `console` option is "screen".
 */
export const consoles = ({ options }: ProfileContext): string => {
  const serial = `console=${lineToken(options.comport)},115200n8`;
  return options.console === "screen" ? `${serial} console=tty0` : `console=tty0 ${serial}`;
};

/** Load and boot the installer; on failure say so, offer the iPXE shell, then leave the network boot. */
const bootInstaller = (
  context: ProfileContext,
  kernel: string,
  initrd?: string,
  from = lineToken(context.options.repo),
  what = "the installer",
): string[] => [
  `kernel ${kernel} || goto failed`,
  ...(initrd ? [`initrd ${initrd} || goto failed`] : []),
  "boot || goto failed",
  ":failed",
  `echo Could not load ${what} from ${from}`,
  "prompt --key 0x197e --timeout 2000 Press F12 for the iPXE shell || goto leave",
  "shell",
  ":leave",
  ...LEAVE,
];

/** The host and the host:port of a URL (RackHD's SYSLOGSERVER and API_CB), the port explicit; a value that is no URL (a library placeholder) as it is. */
const hostOf = (url: string): { host: string; hostAndPort: string } => {
  if (!URL.canParse(url)) return { host: url, hostAndPort: url };
  const { hostname, port, protocol } = new URL(url);
  return { host: hostname, hostAndPort: `${hostname}:${port || (protocol === "https:" ? "443" : "80")}` };
};

/**
 * What the product's microkernel reads from its kernel line: the initrd the EFI stub loads (iPXE
 * names it after the URI's last segment), the API's base URL, the node's id and boot token (so it
 * needs no DNS or fixed port to call back), the interface it booted from, the consoles.
 */

export const microkernelArgs = (context: ProfileContext): { initrd: string; args: string[] } => {
  const { options, api, mac, nodeId, token } = context;
  const initrd = lineToken(options.initrdUri);
  return {
    initrd,
    args: [
      `initrd=${initrd.split("/").pop()}`,
      `API_BASE=${oneLine(api.base)}`,
      `NODE_ID=${oneLine(nodeId)}`,
      ...(token ? [`BOOT_TOKEN=${oneLine(token)}`] : []),
      `BOOTIF=01-${mac.replace(/:/g, "-")}`,
      TIMER_CHECK_OFF,
      consoles(context),
    ],
  };
};

/**
 * What the discovery microkernel takes beyond its own arguments, whichever loader boots it (iPXE,
 * or GRUB under Secure Boot: issue 50, GRUB's profile had no OVERLAYFS, so a Secure Boot machine
 * never got ipmitool and its BMC was never found): RackHD's callback address and syslog server,
 * and the base and overlay file systems (the overlay carries ipmitool for a machine with a BMC).
 */
export const discoveryArgs = ({ options, api }: ProfileContext): string[] => {
  const server = hostOf(api.server);
  return [
    "auto=true",
    `SYSLOGSERVER=${server.host}`,
    `API_CB=${server.hostAndPort}`,
    `BASEFS=${lineToken(options.basefsUri)}`,
    `OVERLAYFS=${lineToken(options.overlayfsUri)}`,
  ];
};

const PROFILES: Record<string, (context: ProfileContext) => string[]> = {
  /** What every profile starts with (RackHD's boilerplate.ipxe, which its profiles were appended to), alone. */
  "boilerplate.ipxe": () => [],
  /**
   * The microkernel (RackHD's linux.ipxe): RackHD's kernel arguments, plus the API's base URL and
   * the node's id and boot token, so that a microkernel needs no DNS or fixed port to call back.
   */
  "linux.ipxe": (context) => {
    const { options, mac } = context;
    const {
      initrd,
      args: [initrdArg, ...ours],
    } = microkernelArgs(context);
    const args = [initrdArg, ...discoveryArgs(context), ...ours];
    return [
      `echo Starting the discovery microkernel for ${mac}`,
      ...bootInstaller(
        context,
        `${lineToken(options.kernelUri)} ${args.join(" ")}`,
        initrd,
        lineToken(options.kernelUri),
        "the discovery microkernel",
      ),
    ];
  },
  "install-centos.ipxe": (context) => {
    const { options, mac } = context;
    const repo = lineToken(options.repo);
    return [
      `echo Starting CentOS/RHEL ${lineToken(options.version ?? "")} installer for ${mac}`,
      `set base-url ${repo}/images/pxeboot`,
      `set params initrd=initrd.img ks=${installScriptUrl(context)} hostname=${lineToken(options.hostname)} ksdevice=bootif BOOTIF=01-${mac.replace(/:/g, "-")} ${consoles(context)}`,
      ...bootInstaller(context, `\${base-url}/vmlinuz repo=${repo} \${params}`, "${base-url}/initrd.img"),
    ];
  },
  "install-trusty.ipxe": (context) => {
    const { options } = context;
    const base = `${lineToken(options.repo)}/dists/${lineToken(options.version)}/main/installer-amd64/current/images/netboot/ubuntu-installer/amd64`;
    return [
      `echo Starting Ubuntu ${lineToken(options.version)} installer for ${context.mac}`,
      ...bootInstaller(
        context,
        `${base}/linux auto=true url=${installScriptUrl(context)} hostname=${lineToken(options.hostname)} interface=auto ${consoles(context)}`,
        `${base}/initrd.gz`,
      ),
    ];
  },
  "install-coreos.ipxe": (context) => {
    const { options } = context;
    const repo = lineToken(options.repo);
    return [
      `echo Starting CoreOS ${lineToken(options.version)} installer for ${context.mac}`,
      ...bootInstaller(
        context,
        `${repo}/coreos_production_pxe.vmlinuz cloud-config-url=${installScriptUrl(context)} ${consoles(context)}`,
        `${repo}/coreos_production_pxe_image.cpio.gz`,
      ),
    ];
  },
  "install-esx.ipxe": (context) => {
    const repo = lineToken(context.options.repo);
    return [
      `echo Starting ESXi ${lineToken(context.options.version ?? "")} installer for ${context.mac}`,
      ...bootInstaller(context, `${repo}/mboot.c32 -c ${repo}/boot.cfg ks=${installScriptUrl(context)}`),
    ];
  },
  /**
   * The image install: the product's microkernel runs the install script (install-image.sh),
   * which writes the image to the disk and points its cloud-init at the node's seed.
   */
  "install-image.ipxe": (context) => {
    const { options, mac } = context;
    const { initrd, args } = microkernelArgs(context);
    const kernel = `${lineToken(options.kernelUri)} ${[...args, `INSTALL_SCRIPT=${installScriptUrl(context)}`].join(" ")}`;
    return [
      `echo Starting the image installer for ${mac}`,
      ...bootInstaller(context, kernel, initrd, lineToken(options.kernelUri), "the image installer"),
    ];
  },
  /** Ubuntu 20.04 and later: the live server's kernel, its ISO, and `autoinstall` with the node's installer seed. */
  "install-ubuntu-autoinstall.ipxe": (context) => {
    const { options, mac } = context;
    const repo = lineToken(options.repo);
    const seed = `${instanceIn(context).seedUrl}autoinstall/`;
    return [
      `echo Starting the Ubuntu ${lineToken(options.version)} installer (autoinstall) for ${mac}`,
      ...bootInstaller(
        context,
        `${repo}/casper/vmlinuz initrd=initrd ip=dhcp url=${repo}/${lineToken(options.iso)} autoinstall ds=nocloud;s=${seed} cloud-config-url=/dev/null ${consoles(context)}`,
        `${repo}/casper/initrd`,
      ),
    ];
  },
  /** Debian's netboot installer with its preseed (debian-preseed). */
  "install-debian.ipxe": (context) => {
    const { options, mac } = context;
    const base = `${lineToken(options.repo)}/dists/${lineToken(options.version)}/main/installer-amd64/current/images/netboot/debian-installer/amd64`;
    return [
      `echo Starting the Debian ${lineToken(options.version)} installer for ${mac}`,
      ...bootInstaller(
        context,
        `${base}/linux initrd=initrd.gz auto=true priority=critical url=${installScriptUrl(context)} interface=auto ${consoles(context)}`,
        `${base}/initrd.gz`,
      ),
    ];
  },
  /** Rocky and Alma Linux 9: anaconda with its kickstart (el9-ks). */
  "install-el9.ipxe": (context) => {
    const { options, mac } = context;
    const repo = lineToken(options.repo);
    return [
      `echo Starting the EL ${lineToken(options.version)} installer for ${mac}`,
      ...bootInstaller(
        context,
        `${repo}/images/pxeboot/vmlinuz initrd=initrd.img inst.repo=${repo} inst.ks=${installScriptUrl(context)} inst.text ip=dhcp ${consoles(context)}`,
        `${repo}/images/pxeboot/initrd.img`,
      ),
    ];
  },
};

export const PROFILE_NAMES: readonly string[] = Object.keys(PROFILES);

/** The task's boot profile, rendered for the node; undefined for an unknown profile name. */
export function profileScript(name: string, context: ProfileContext): string | undefined {
  const lines = Object.hasOwn(PROFILES, name) ? PROFILES[name](context) : undefined;
  return lines && profileWith(context, lines);
}

/** A profile's lines after the header every profile starts with (a put profile's too): the boilerplate. */
export const profileWith = (context: ProfileContext, lines: readonly string[]): string =>
  [...header(), `set interface ${oneLine(context.mac)}`, ...lines, ""].join("\n");
