import type { ApiContext } from "../apiContext";

/**
 * iPXE scripts served to booting machines (RackHD's data/profiles, rewritten). Every value put
 * into a script is made one line, so an option cannot add commands to it.
 */
export const oneLine = (value: unknown): string => String(value ?? "").replace(/[\r\n]+/g, " ");

const header = (): string[] => ["#!ipxe", "set user-class MonoRail"];

/** No MACs yet: collect the machine's MACs and come back with ?macs=. */
export function redirectScript(api: ApiContext): string {
  return [
    ...header(),
    "echo Collecting MAC addresses",
    "set query macs=${net0/mac:hex}",
    ...[1, 2, 3, 4, 5, 6, 7].map((n) => `isset \${net${n}/mac} && set query \${query}&macs=\${net${n}/mac:hex} ||`),
    `chain --autofree ${oneLine(api.profiles)}?\${query} || goto failed`,
    ":failed",
    "echo Could not reach the provisioning service; booting from local disk",
    "sleep 10",
    "exit",
    "",
  ].join("\n");
}

/** A new machine was just discovered: it boots its local disk until a workflow is started for it. */
export function discoveredScript(nodeId: string, macs: readonly string[]): string {
  return [
    ...header(),
    `echo Discovered node ${nodeId} (${macs.map(oneLine).join(",")})`,
    "echo No workflow is active for this node; booting from local disk",
    "sanboot --no-describe --drive 0x80 || exit",
    "",
  ].join("\n");
}

/** The node is known but nothing is to be done: RackHD's error.ipxe with its message, then disk. */
export function messageScript(message: string): string {
  return [...header(), `echo ${oneLine(message)}`, "sleep 5", "exit", ""].join("\n");
}

export interface ProfileContext {
  options: Record<string, unknown>;
  api: ApiContext;
  nodeId: string;
  mac: string;
}

const installScriptUrl = ({ options, api, nodeId }: ProfileContext): string =>
  `${api.templates}/${oneLine(options.installScript)}?nodeId=${nodeId}`;

const PROFILES: Record<string, (context: ProfileContext) => string[]> = {
  "install-centos.ipxe": (context) => {
    const { options, mac } = context;
    const repo = oneLine(options.repo);
    return [
      `echo Starting CentOS/RHEL ${oneLine(options.version ?? "")} installer for ${mac}`,
      `set base-url ${repo}/images/pxeboot`,
      `set params initrd=initrd.img ks=${installScriptUrl(context)} hostname=${oneLine(options.hostname)} ksdevice=bootif BOOTIF=01-${mac.replace(/:/g, "-")} console=${oneLine(options.comport)},115200n8 console=tty0`,
      `kernel \${base-url}/vmlinuz repo=${repo} \${params}`,
      "initrd ${base-url}/initrd.img",
      "boot || prompt --key 0x197e --timeout 2000 Press F12 to investigate || exit shell",
    ];
  },
  "install-trusty.ipxe": (context) => {
    const { options } = context;
    const base = `${oneLine(options.repo)}/dists/${oneLine(options.version)}/main/installer-amd64/current/images/netboot/ubuntu-installer/amd64`;
    return [
      `echo Starting Ubuntu ${oneLine(options.version)} installer for ${context.mac}`,
      `kernel ${base}/linux auto=true url=${installScriptUrl(context)} hostname=${oneLine(options.hostname)} console=${oneLine(options.comport)},115200n8 interface=auto`,
      `initrd ${base}/initrd.gz`,
      "boot || prompt --key 0x197e --timeout 2000 Press F12 to investigate || exit shell",
    ];
  },
  "install-coreos.ipxe": (context) => {
    const { options } = context;
    const repo = oneLine(options.repo);
    return [
      `echo Starting CoreOS ${oneLine(options.version)} installer for ${context.mac}`,
      `kernel ${repo}/coreos_production_pxe.vmlinuz cloud-config-url=${installScriptUrl(context)} console=${oneLine(options.comport)},115200n8`,
      `initrd ${repo}/coreos_production_pxe_image.cpio.gz`,
      "boot || prompt --key 0x197e --timeout 2000 Press F12 to investigate || exit shell",
    ];
  },
  "install-esx.ipxe": (context) => {
    const repo = oneLine(context.options.repo);
    return [
      `echo Starting ESXi ${oneLine(context.options.version ?? "")} installer for ${context.mac}`,
      `kernel ${repo}/mboot.c32 -c ${repo}/boot.cfg ks=${installScriptUrl(context)}`,
      "boot || prompt --key 0x197e --timeout 2000 Press F12 to investigate || exit shell",
    ];
  },
};

/** The install task's boot profile, rendered for the node; undefined for an unknown profile name. */
export function profileScript(name: string, context: ProfileContext): string | undefined {
  const lines = PROFILES[name]?.(context);
  return lines && [...header(), `set interface ${context.mac}`, ...lines, ""].join("\n");
}
