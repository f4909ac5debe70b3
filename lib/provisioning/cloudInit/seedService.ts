import { NotFoundError } from "../../errors";
import type { ApiContext } from "../apiContext";
import { type Netplan, planOf } from "../networkPlans/networkPlan";
import { plannedNetworkConfig } from "../networkPlans/planService";
import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import { markFromMachine, waitingInstallTask } from "../workflowEngine/progress";
import { activeWorkflowOf, type WorkflowStores } from "../workflows/workflowService";
import { autoinstallUserData } from "./autoinstall";
import { EC2_VERSIONS, type InstanceRecord, SEED_DOCUMENTS, type SeedDocument } from "./instance";
import { instanceOf, reportUrlOf, seedUrlOf } from "./instanceService";

/** A cloud-config that asks for nothing (`cloud-init schema` wants a mapping, even an empty one). */
const EMPTY_CLOUD_CONFIG = "#cloud-config\n{}\n";

/** A YAML line whose value is a JSON string (JSON's strings are YAML's double-quoted scalars). */
const yamlLine = (key: string, value: string): string => `${key}: ${JSON.stringify(value)}\n`;

/** A host name cloud-init can set: the node's name, else its id, in the letters a host name may hold. */
export const hostNameOf = (node: Node): string =>
  node.name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63) || node.id;

const publicKeysOf = (node: Node): string[] => {
  const key = (node.sshSettings as { publicKey?: string } | undefined)?.publicKey;
  return typeof key === "string" && key !== "" ? [key] : [];
};

const MACS = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/;

/** What the seed answers for one request: the document's text. */
interface Seed {
  record: InstanceRecord;
  /** The user-data it gets (userDataOf). */
  userData: string | undefined;
  node: Node;
  credential: string;
  context: ApiContext;
  /** The node's network plan as netplan (networkPlans/), read for the network-config only. */
  network?: Netplan;
}

/** The vendor-data's parts are cut at this line (MIME multipart, as cloud-init reads vendor-data). */
export const VENDOR_DATA_BOUNDARY = "==provisioning-service-vendor-data==";

/**
 * The installed system's first boot reports its addresses per NIC (issue 50: the address shown
 * was the microkernel's lease, and SSH to it failed). A vendor script (cloud-init runs it once per
 * instance, in its final stage, whatever the user-data's own `runcmd`): Python, which every system
 * with cloud-init has, reads `ip -j addr` and posts the Ethernet NICs' global addresses to the
 * reports route as a cloud-init-shaped `progress` event with an `addresses` field (at most 16
 * NICs of 16 addresses: installReports/reportedAddresses.ts checks them). It tries five times,
 * then leaves the boot alone.
 */
export const addressScript = (reportUrl: string): string =>
  [
    "#!/usr/bin/python3",
    "# The provisioning service's: this system's addresses, per NIC, for its operators (how to reach it).",
    "import json, subprocess, time, urllib.request",
    // A JSON string is a Python string literal too: the URL cannot end it early.
    `ENDPOINT = ${JSON.stringify(reportUrl)}`,
    'links = json.loads(subprocess.run(["ip", "-j", "addr", "show"], capture_output=True, text=True, check=True).stdout)',
    "nics = []",
    "for link in links:",
    '    if link.get("link_type") != "ether":',
    "        continue",
    '    found = [a["local"] + "/" + str(a["prefixlen"]) for a in link.get("addr_info", []) if a.get("scope") == "global"]',
    '    nics.append({"name": link.get("ifname", ""), "mac": link.get("address", ""), "addresses": found[:16]})',
    'event = {"event_type": "progress", "name": "addresses", "origin": "provisioning-service", "timestamp": time.time(),',
    '         "description": "the installed system\'s addresses, per NIC", "addresses": nics[:16]}',
    'request = urllib.request.Request(ENDPOINT, data=json.dumps(event).encode(), headers={"Content-Type": "application/json"})',
    "for attempt in range(5):",
    "    try:",
    "        urllib.request.urlopen(request, timeout=10)",
    "        break",
    "    except Exception:",
    "        time.sleep(2)",
    "",
  ].join("\n");

/**
 * The cloud-config part: cloud-init reports each stage to the service (its `webhook` reporting
 * handler), so the install's timeline shows the first boot and a first boot that finishes can end
 * the install; and it writes /etc/hosts with the host name it sets (issue 50: an image's own
 * /etc/hosts did not name it, and every `sudo` printed "unable to resolve host"). A user-data's
 * own `manage_etc_hosts` wins.
 */
export const vendorConfig = (reportUrl: string) => ({
  reporting: { provisioner: { type: "webhook", endpoint: reportUrl } },
  manage_etc_hosts: true,
});

/**
 * The service's defaults for every installed system, two parts: the cloud-config above, and the
 * script that reports its addresses.
 */
export const vendorData = (reportUrl: string): string =>
  [
    `Content-Type: multipart/mixed; boundary="${VENDOR_DATA_BOUNDARY}"`,
    "MIME-Version: 1.0",
    "",
    `--${VENDOR_DATA_BOUNDARY}`,
    'Content-Type: text/cloud-config; charset="utf-8"',
    "",
    `#cloud-config\n${JSON.stringify(vendorConfig(reportUrl), null, 2)}`,
    `--${VENDOR_DATA_BOUNDARY}`,
    'Content-Type: text/x-shellscript; charset="utf-8"',
    "",
    addressScript(reportUrl),
    `--${VENDOR_DATA_BOUNDARY}--`,
    "",
  ].join("\n");

/**
 * netplan v2 for a node with no network plan, from what the service knows of the machine: its MACs, each by DHCP (the first one
 * required, the others optional so a cable left out does not hold the boot); 404 without a MAC.
 */
function networkConfig(node: Node): string {
  const macs = node.identifiers.filter((identifier) => MACS.test(identifier));
  if (macs.length === 0) throw new NotFoundError("No network-config: the service knows no MAC of this machine");
  const ethernets = Object.fromEntries(
    macs.map((mac, index) => [
      `nic${index}`,
      { match: { macaddress: mac }, "set-name": `nic${index}`, dhcp4: true, ...(index > 0 && { optional: true }) },
    ]),
  );
  return `${JSON.stringify({ version: 2, ethernets }, null, 2)}\n`;
}

/**
 * The user-data the machine gets: its install's (the install task's `userData`, kept on the
 * workflow that gave it its instance), else the node's.
 */
async function userDataOf(stores: StoresOf<"workflows">, record: InstanceRecord): Promise<string | undefined> {
  const workflow = record.workflowId ? await stores.workflows.get(record.workflowId) : undefined;
  return workflow?.userData ?? record.userData;
}

/** The documents of the NoCloud seed (`s=<seedUrl>`). */
function nocloudDocument(seed: Seed, document: SeedDocument): string {
  const { record, node } = seed;
  switch (document) {
    case "meta-data": {
      const keys = publicKeysOf(node);
      const keyLines =
        keys.length > 0 ? `public-keys:\n${keys.map((key) => `  - ${JSON.stringify(key)}\n`).join("")}` : "public-keys: []\n";
      return `${yamlLine("instance-id", record.instanceId)}${yamlLine("local-hostname", hostNameOf(node))}${keyLines}`;
    }
    case "user-data":
      return seed.userData ?? EMPTY_CLOUD_CONFIG;
    case "vendor-data":
      return vendorData(reportUrlOf(seed.context, seed.credential));
    default:
      return seed.network ? `${JSON.stringify(seed.network, null, 2)}\n` : networkConfig(node);
  }
}

/**
 * The EC2-style tree (`<version>/meta-data/…`, `<version>/user-data`), the same facts as the
 * NoCloud seed for clients that read that shape (cloud-init's Ec2 datasource with
 * `metadata_urls`, Ignition-era tools). A directory lists its entries, one a line, `/` after a
 * directory's name.
 */
function ec2Document(seed: Seed, path: string[]): string {
  const { record, node } = seed;
  const keys = publicKeysOf(node);
  const metaData: Record<string, string> = {
    "instance-id": record.instanceId,
    "local-hostname": hostNameOf(node),
    hostname: hostNameOf(node),
  };
  const [section, ...rest] = path;
  const where = rest.join("/");
  if (section === undefined) return seed.userData === undefined ? "meta-data\n" : "meta-data\nuser-data\n";
  if (section === "user-data" && rest.length === 0 && seed.userData !== undefined) return seed.userData;
  if (section === "meta-data") {
    if (where === "") return `${[...Object.keys(metaData), ...(keys.length > 0 ? ["public-keys/"] : [])].join("\n")}\n`;
    if (Object.hasOwn(metaData, where)) return metaData[where];
    if (keys.length > 0) {
      if (where === "public-keys") return `${keys.map((_key, index) => `${index}=key-${index}`).join("\n")}\n`;
      const key = /^public-keys\/(\d+)(\/openssh-key)?$/.exec(where);
      if (key && Number(key[1]) < keys.length) return key[2] ? `${keys[Number(key[1])]}\n` : "openssh-key\n";
    }
  }
  throw new NotFoundError(`No such metadata: ${path.join("/")}`);
}

const DATED_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * One document of the machine's metadata, by its path under the seed URL: a NoCloud document
 * (`meta-data`, `user-data`, `vendor-data`, `network-config`), the EC2-style tree under `latest/`
 * or `2009-04-04/`, or the Ubuntu installer's seed under `autoinstall/`. A dated version this
 * service does not serve is a 404 at once, before any read, as EC2 clients probe the newest first.
 */
export async function seedDocument(
  stores: WorkflowStores & StoresOf<"instances" | "subnets">,
  credential: string,
  path: string,
  context: ApiContext,
  now: Date,
): Promise<string> {
  const parts = path.replace(/\/+$/, "").split("/");
  const [first, ...rest] = parts;
  const known = (EC2_VERSIONS as readonly string[]).includes(first);
  if (!known && DATED_VERSION.test(first))
    throw new NotFoundError(`No metadata version ${first}: this service serves ${EC2_VERSIONS.join(" and ")}`);
  const isDocument = parts.length === 1 && (SEED_DOCUMENTS as readonly string[]).includes(first);
  const isAutoinstall = first === "autoinstall" && rest.length === 1;
  if (!known && !isDocument && !isAutoinstall) throw new NotFoundError(`No such metadata: ${path}`);
  const { record, node } = await instanceOf(stores, credential);
  // Only a user-data document (or the EC2 listing that names it) costs the read of the install's workflow.
  const needsUserData = first === "user-data" || (known && (rest.length === 0 || rest[0] === "user-data"));
  const network = isDocument && first === "network-config" ? await plannedNetworkConfig(stores, node) : undefined;
  const seed: Seed = {
    record,
    node,
    credential,
    context,
    userData: needsUserData ? await userDataOf(stores, record) : undefined,
    ...(network && { network }),
  };
  if (known) return ec2Document(seed, rest);
  if (isDocument) return nocloudDocument(seed, first as SeedDocument);
  return autoinstallDocument(stores, seed, rest[0], now);
}

/**
 * The Ubuntu installer's own seed (`autoinstall ds=nocloud;s=<seedUrl>autoinstall/`): its
 * user-data is the autoinstall config of the node's waiting install task; the installed system
 * then reads the node's own seed (autoinstall.ts).
 */
async function autoinstallDocument(stores: WorkflowStores, seed: Seed, document: string, now: Date): Promise<string> {
  switch (document) {
    case "meta-data":
      return `${yamlLine("instance-id", `${seed.record.instanceId}-installer`)}${yamlLine("local-hostname", hostNameOf(seed.node))}`;
    case "vendor-data":
      return EMPTY_CLOUD_CONFIG;
    case "user-data": {
      const workflow = await activeWorkflowOf(stores, seed.node, now);
      const task = workflow && waitingInstallTask(workflow);
      if (!task) throw new NotFoundError(`No install is waiting for node ${seed.node.id}`);
      // The installer's first fetch of its config is its install script's (the timeline's "fetched its install script").
      if (!task.templateFetchedAt) {
        await stores.workflows.update(
          workflow.instanceId,
          (current) => markFromMachine(current, task.instanceId, "templateFetchedAt", now),
          workflow,
        );
      }
      return autoinstallUserData(task.options, {
        seedUrl: seedUrlOf(seed.context, seed.credential),
        reportUrl: reportUrlOf(seed.context, seed.credential),
        hostname: hostNameOf(seed.node),
        keys: publicKeysOf(seed.node),
        ...(planOf(seed.node) && { network: planOf(seed.node)!.netplan }),
      });
    }
    default:
      throw new NotFoundError(`No such metadata: autoinstall/${document}`);
  }
}
