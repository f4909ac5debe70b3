import { bootQuery } from "../bootToken";
import { lineToken, oneLine, shellWord } from "../scriptValues";
import { CLOUD_INIT_TEMPLATES } from "./cloudInitTemplates";
import type { ProfileContext } from "./ipxe";

/** What a template renders with: the same as a profile (the task's options, the servers, the node, its credentials). */
export type TemplateContext = ProfileContext;

/** A YAML scalar that is exactly the value's text (a JSON string is a YAML double-quoted scalar). */
const yamlString = (value: unknown): string => JSON.stringify(String(value ?? ""));

const asArray = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => item !== null && typeof item === "object") : [];

/** The two ways a RackHD install tells the service it is done: a request to completionUri (A/B) and a notification (C). */
const completionCommands = ({ options, api, nodeId, token }: TemplateContext): string[] => [
  "# Signal completion to the provisioning service (both RackHD styles; either one completes the workflow).",
  `wget --spider ${shellWord(`${api.templates}/${lineToken(options.completionUri)}?${bootQuery(nodeId, token)}`)} || true`,
  `curl -fsS -X POST -H 'Content-Type: application/json' ${shellWord(`${api.base}/notification?${bootQuery(nodeId, token)}`)} || true`,
];

function centosKickstart(context: TemplateContext): string {
  const { options, nodeId } = context;
  const network = asArray(options.networkDevices).map((device) => {
    const ipv4 = (device.ipv4 ?? {}) as Record<string, unknown>;
    return ipv4.ipAddr
      ? `network --device=${lineToken(device.device)} --bootproto=static --ip=${lineToken(ipv4.ipAddr)} --netmask=${lineToken(ipv4.netmask)} --gateway=${lineToken(ipv4.gateway)}`
      : `network --device=${lineToken(device.device)} --bootproto=dhcp`;
  });
  const dns =
    Array.isArray(options.dnsServers) && options.dnsServers.length > 0
      ? ` --nameserver=${options.dnsServers.map(lineToken).join(",")}`
      : "";
  const users = asArray(options.users).map(
    (user) =>
      `user --name=${lineToken(user.name)} --password=${oneLine(user.encryptedPassword)} --iscrypted${user.uid !== undefined ? ` --uid=${lineToken(user.uid)}` : ""}`,
  );
  const disk = options.installDisk ? lineToken(options.installDisk) : "sda";
  return [
    `# CentOS/RHEL kickstart for node ${nodeId} (RackHD centos-ks)`,
    "install",
    "text",
    `url --url=${lineToken(options.repo)}`,
    "lang en_US.UTF-8",
    "keyboard us",
    `network --bootproto=dhcp --hostname=${lineToken(options.hostname)}.${lineToken(options.domain)}${dns}`,
    ...network,
    `rootpw --iscrypted ${oneLine(options.rootEncryptedPassword)}`,
    ...users,
    "firewall --disabled",
    "selinux --permissive",
    "timezone Etc/UTC --isUtc",
    `bootloader --location=mbr --driveorder=${disk} --append="console=${lineToken(options.comport)},115200n8"`,
    "zerombr",
    `clearpart --all --initlabel --drives=${disk}`,
    "autopart",
    "reboot",
    "",
    "%packages",
    "@core",
    "wget",
    "curl",
    "%end",
    "",
    "%post --log=/root/install-post.log",
    ...(options.rootSshKey
      ? ["mkdir -p /root/.ssh", `echo ${shellWord(oneLine(options.rootSshKey))} >> /root/.ssh/authorized_keys`, "chmod 700 /root/.ssh"]
      : []),
    ...completionCommands(context),
    "%end",
    "",
  ].join("\n");
}

function ubuntuPreseed(context: TemplateContext): string {
  const { options } = context;
  return [
    `# Ubuntu preseed for node ${context.nodeId}`,
    "d-i debian-installer/locale string en_US.UTF-8",
    `d-i netcfg/get_hostname string ${lineToken(options.hostname)}`,
    `d-i netcfg/get_domain string ${lineToken(options.domain)}`,
    `d-i mirror/http/hostname string ${lineToken(options.repo)}`,
    "d-i passwd/root-login boolean true",
    `d-i passwd/root-password-crypted password ${oneLine(options.rootEncryptedPassword)}`,
    "d-i partman-auto/method string regular",
    `d-i preseed/late_command string in-target sh -c "${completionCommands(context).slice(1).join("; ")}"`,
    "d-i finish-install/reboot_in_progress note",
    "",
  ].join("\n");
}

function coreosCloudConfig(context: TemplateContext): string {
  const { options } = context;
  return [
    "#cloud-config",
    `# CoreOS install for node ${context.nodeId}`,
    `hostname: ${yamlString(options.hostname)}`,
    "users:",
    "  - name: core",
    `    passwd: ${yamlString(options.rootEncryptedPassword)}`,
    ...(options.rootSshKey ? ["    ssh-authorized-keys:", `      - ${yamlString(options.rootSshKey)}`] : []),
    "",
  ].join("\n");
}

function esxKickstart(context: TemplateContext): string {
  const { options } = context;
  return [
    `# ESXi kickstart for node ${context.nodeId}`,
    "vmaccepteula",
    `rootpw --iscrypted ${oneLine(options.rootEncryptedPassword)}`,
    `install --${lineToken(options.installDisk ?? "firstdisk")} --overwritevmfs`,
    `network --bootproto=dhcp --hostname=${lineToken(options.hostname)}.${lineToken(options.domain)}`,
    "reboot",
    "",
    "%firstboot --interpreter=busybox",
    ...completionCommands(context),
    "",
  ].join("\n");
}

/** RackHD serves this public key for Ansible; here it is only the completion marker file. */
const completionMarker = (context: TemplateContext): string =>
  `# renasar-ansible.pub for node ${context.nodeId}: a 2xx answer to this path tells the service the install is complete.\n`;

const TEMPLATES: Record<string, (context: TemplateContext) => string> = {
  "centos-ks": centosKickstart,
  "ubuntu-preseed": ubuntuPreseed,
  "pxe-cloud-config.yml": coreosCloudConfig,
  "esx-ks": esxKickstart,
  "renasar-ansible.pub": completionMarker,
  ...CLOUD_INIT_TEMPLATES,
};

export const TEMPLATE_NAMES: readonly string[] = Object.keys(TEMPLATES);

export const isTemplateName = (name: string): boolean => Object.hasOwn(TEMPLATES, name);

export const renderInstallTemplate = (name: string, context: TemplateContext): string => TEMPLATES[name](context);
