import { MEDIA_WORD, type MediaBoot } from "../../wire/relay";
import { normalizeMac } from "../mac";
import type { Node } from "../nodes/node";
import type { Workflow } from "../workflowEngine/workflow";
import { TIMER_CHECK_OFF } from "./kernelArgs";

/**
 * Virtual media (issue 53, docs/lifecycle.md): a node whose `virtualMedia` is set boots through its
 * Redfish BMC's virtual CD where its workflows say "PXE once": its site's relay builds an image of
 * the microkernel (relay/virtualMedia.ts), inserts it, and the machine boots it with no network boot
 * at all. What the image carries is decided here: the microkernel's kernel and initrd (the workflow's
 * own), the node and the port it boots from, its consoles, and its network: DHCP when the setting
 * names no address, else the static address, gateway and name servers the operator gave. The rest of
 * its kernel line (its workflow's step: discovery or the image install, its boot token) the
 * microkernel asks of the service once its network is up (`/profiles?loader=media`, mediaProfile.ts).
 */
export interface VirtualMediaSetting {
  /** IPv4 address with its prefix length (`10.77.0.20/24`); absent: DHCP. */
  address?: string;
  gateway?: string;
  nameservers?: string[];
}

const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
/** An IPv4 address (no leading zeros), and one with its prefix length: the schema's patterns too. */
export const IPV4_PATTERN = `^${OCTET}(\\.${OCTET}){3}$`;
export const IPV4_CIDR_PATTERN = `^${OCTET}(\\.${OCTET}){3}/([0-9]|[12][0-9]|3[0-2])$`;
const IPV4 = new RegExp(IPV4_PATTERN);
const IPV4_CIDR = new RegExp(IPV4_CIDR_PATTERN);
export const NAMESERVERS_MAX = 3;

/** The node's setting when it boots by virtual media, else undefined (its `virtualMedia`, checked again: a stored node may predate the schema). */
export function virtualMediaOf(node: Node): VirtualMediaSetting | undefined {
  const value = node.virtualMedia;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const setting = value as Record<string, unknown>;
  const address = typeof setting.address === "string" && IPV4_CIDR.test(setting.address) ? setting.address : undefined;
  const gateway = typeof setting.gateway === "string" && IPV4.test(setting.gateway) ? setting.gateway : undefined;
  const nameservers = Array.isArray(setting.nameservers)
    ? setting.nameservers.filter((each): each is string => typeof each === "string" && IPV4.test(each)).slice(0, NAMESERVERS_MAX)
    : [];
  return { ...(address && { address }), ...(gateway && { gateway }), ...(nameservers.length > 0 && { nameservers }) };
}

/** The path (and query) of a URL, for the relay to fetch from the service; undefined for what is not a URL. */
const pathOf = (value: unknown): string | undefined => {
  if (typeof value !== "string" || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return `${url.pathname}${url.search}`;
};

/** The node's first MAC: the port its image brings up (the microkernel tries the others when it gets no address there). */
const bootMac = (node: Node): string | undefined =>
  node.identifiers.map((identifier) => normalizeMac(identifier)).find((mac) => mac !== undefined);

/**
 * What the node's image boots for this workflow: the kernel and initrd of its first task that names
 * them (the microkernel's, discovery's or the image install's), with the kernel line's words; a
 * reason (a string) when it cannot have one.
 */
export function mediaBootFor(node: Node, workflow: Workflow, setting: VirtualMediaSetting): MediaBoot | string {
  const task = Object.values(workflow.tasks).find((each) => pathOf(each.options.kernelUri) && pathOf(each.options.initrdUri));
  const kernel = pathOf(task?.options.kernelUri);
  const initrd = pathOf(task?.options.initrdUri);
  if (!task || !kernel || !initrd)
    return `Workflow ${workflow.injectableName} boots no microkernel (no task names a kernelUri and an initrdUri)`;
  const mac = bootMac(node);
  if (!mac) return `Node ${node.id} has no MAC among its identifiers: its image would not know which port to bring up`;
  const comport = typeof task.options.comport === "string" ? task.options.comport : "ttyS0";
  const args = [
    `NODE_ID=${node.id}`,
    `BOOTIF=01-${mac.replace(/:/g, "-")}`,
    "MEDIA_PROFILE=1",
    ...(setting.address ? [`NET_ADDRESS=${setting.address}`] : []),
    ...(setting.gateway ? [`NET_GATEWAY=${setting.gateway}`] : []),
    ...(setting.nameservers ? [`NET_DNS=${setting.nameservers.join(",")}`] : []),
    TIMER_CHECK_OFF,
    "console=tty0",
    `console=${comport},115200n8`,
  ];
  const bad = [kernel, initrd, ...args].find((word) => !MEDIA_WORD.test(word));
  return bad === undefined ? { kernel, initrd, args } : `The image's kernel line cannot carry ${JSON.stringify(bad.slice(0, 80))}`;
}
