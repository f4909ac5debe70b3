import fc from "fast-check";
import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { parseLoader } from "../../../../lib/provisioning/boot/bootLoader";
import { bootProfile } from "../../../../lib/provisioning/boot/bootService";
import { mediaProfile } from "../../../../lib/provisioning/boot/mediaProfile";
import { IPV4_CIDR_PATTERN, IPV4_PATTERN, mediaBootFor, virtualMediaOf } from "../../../../lib/provisioning/boot/virtualMedia";
import { graphDefinition } from "../../../../lib/provisioning/graphs/graphLibrary";
import type { Node } from "../../../../lib/provisioning/nodes/node";
import { relayTaskOutcomes } from "../../../../lib/provisioning/relays/relayTasks";
import { createSite } from "../../../../lib/provisioning/relays/siteService";
import { buildWorkflow } from "../../../../lib/provisioning/workflowEngine/buildWorkflow";
import { advanceWorkflow } from "../../../../lib/provisioning/workflowEngine/progress";
import { MEDIA_WORD } from "../../../../lib/wire/relay";
import { aNode, memoryStores, T0 } from "./setUp";

const api = apiContextFor("http://10.0.0.1:9080");
const MAC = "52:54:00:5b:00:07";
const REDFISH = { service: "redfish-obm-service", config: { uri: "https://10.0.0.9", user: "root", password: "calvin" } };

/** Virtual media on the service's side (issue 53): the node's setting, what its image carries, the job, the microkernel's profile. */
describe("virtual media: the node's image and the rest of its kernel line", () => {
  const node = (virtualMedia: unknown): Node =>
    ({
      id: "0123456789abcdef01234567",
      name: "n",
      identifiers: ["not-a-mac", MAC],
      obmSettings: [REDFISH],
      virtualMedia,
    }) as unknown as Node;
  const discovery = () => buildWorkflow(graphDefinition("Graph.Refresh.Immediate.Discovery")!, {}, "0123456789abcdef01234567", api, T0);

  it("reads the setting: a static address with its gateway and name servers, or DHCP; anything else is no setting", () => {
    expect(virtualMediaOf(node({ address: "10.77.0.20/24", gateway: "10.77.0.1", nameservers: ["10.77.0.1", "9.9.9.9"] }))).toEqual({
      address: "10.77.0.20/24",
      gateway: "10.77.0.1",
      nameservers: ["10.77.0.1", "9.9.9.9"],
    });
    expect(virtualMediaOf(node({}))).toEqual({});
    for (const value of [undefined, null, "yes", ["10.0.0.1/24"], true]) expect(virtualMediaOf(node(value))).toBeUndefined();
    // A stored value the schema would refuse now is read for what is valid in it.
    expect(virtualMediaOf(node({ address: "10.0.0.300/24", gateway: "x", nameservers: ["1.1.1.1", 5, "a"] }))).toEqual({
      nameservers: ["1.1.1.1"],
    });
  });

  it("takes IPv4 addresses and prefixes as they are written, and nothing a kernel line or GRUB would read as more", () => {
    const cidr = new RegExp(IPV4_CIDR_PATTERN);
    const ip = new RegExp(IPV4_PATTERN);
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 32 }), (address, prefix) => {
        expect(ip.test(address)).toBe(true);
        expect(cidr.test(`${address}/${prefix}`)).toBe(true);
        expect(MEDIA_WORD.test(`NET_ADDRESS=${address}/${prefix}`)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        if (ip.test(text))
          expect(
            text
              .split(".")
              .map(Number)
              .every((octet) => octet >= 0 && octet <= 255),
          ).toBe(true);
        if (cidr.test(text)) expect(MEDIA_WORD.test(text)).toBe(true);
      }),
    );
    for (const bad of ["10.0.0.1/33", "010.0.0.1/24", "10.0.0.1", "10.0.0.1/24 x", "10.0.0.1/24\n"]) expect(cidr.test(bad)).toBe(false);
  });

  it("boots the workflow's microkernel from the image: its kernel and initrd, the node, its port, its consoles and its static network", () => {
    const boot = mediaBootFor(node({}), discovery(), { address: "10.77.0.20/24", gateway: "10.77.0.1", nameservers: ["10.77.0.1"] });
    expect(boot).toEqual({
      kernel: expect.stringMatching(/^\/common\/vmlinuz/),
      initrd: expect.stringMatching(/^\/common\//),
      args: [
        "NODE_ID=0123456789abcdef01234567",
        "BOOTIF=01-52-54-00-5b-00-07",
        "MEDIA_PROFILE=1",
        "NET_ADDRESS=10.77.0.20/24",
        "NET_GATEWAY=10.77.0.1",
        "NET_DNS=10.77.0.1",
        "no_timer_check",
        "console=tty0",
        "console=ttyS0,115200n8",
      ],
    });
    // DHCP: no network words.
    expect((mediaBootFor(node({}), discovery(), {}) as { args: string[] }).args.some((arg) => arg.startsWith("NET_"))).toBe(false);
  });

  it("says why there is no image: a workflow that boots no microkernel, a node with no MAC, a kernel line that cannot carry a value", () => {
    const shell = buildWorkflow(graphDefinition("Graph.Obm.Node.PowerOn") ?? graphDefinition("Graph.PowerOn.Node")!, {}, "n", api, T0);
    expect(mediaBootFor(node({}), shell, {})).toMatch(/boots no microkernel/);
    expect(mediaBootFor({ ...node({}), identifiers: ["serial-1"] }, discovery(), {})).toMatch(/has no MAC among its identifiers/);
    const odd = discovery();
    const [first] = Object.keys(odd.tasks).filter((id) => odd.tasks[id].options.kernelUri);
    odd.tasks[first] = { ...odd.tasks[first], options: { ...odd.tasks[first].options, comport: "ttyS0 init=/bin/sh" } };
    expect(mediaBootFor(node({}), odd, {})).toMatch(/cannot carry "console=ttyS0 init=\/bin\/sh,115200n8"/);
  });

  it("turns the workflow's one-time PXE boot into the relay's virtual media job for a node set to it, and leaves the others as they were", async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "lab" }, T0);
    const plain = { ...(await aNode(stores, "plain", MAC)), obmSettings: [REDFISH], site: site.id } as Node;
    const media = { ...plain, virtualMedia: { address: "10.77.0.20/24" } } as Node;
    const jobOf = async (subject: Node) => {
      const workflow = advanceWorkflow(discovery(), subject.obmSettings, T0);
      expect(await relayTaskOutcomes(stores, workflow, subject, T0)).toEqual([]);
      const jobs = await stores.relayJobs.list();
      return jobs.find((job) => job.task?.workflow === workflow.instanceId)?.action;
    };
    // The discovery graph reads the BIOS first: its first relay task is that read, then the boot.
    expect(await jobOf(plain)).toMatchObject({ kind: "inventory" });
    const workflow = advanceWorkflow(discovery(), media.obmSettings, T0);
    const setBoot = Object.values(workflow.tasks).find((task) => task.options.action === "setBootPxe")!;
    const booting = {
      ...workflow,
      tasks: { ...workflow.tasks, [setBoot.instanceId]: { ...setBoot, state: "running" as const, relayJob: `job-${setBoot.instanceId}` } },
    };
    await relayTaskOutcomes(stores, booting, media, T0);
    expect((await stores.relayJobs.get(`job-${setBoot.instanceId}`))?.action).toMatchObject({
      kind: "virtualMedia",
      action: "insert",
      uefi: false,
      boot: { args: expect.arrayContaining(["NET_ADDRESS=10.77.0.20/24", "MEDIA_PROFILE=1"]) },
    });
    // A node whose image cannot be made: the task fails saying why (no job).
    const nameless = { ...media, identifiers: ["serial-9"] } as Node;
    const failing = {
      ...booting,
      instanceId: "w2",
      tasks: { ...booting.tasks, [setBoot.instanceId]: { ...booting.tasks[setBoot.instanceId], relayJob: "job-2" } },
    };
    expect(await relayTaskOutcomes(stores, failing, nameless, T0)).toEqual([
      { taskId: setBoot.instanceId, state: "failed", error: expect.stringMatching(/has no MAC among its identifiers/) },
    ]);
  });

  it("answers the microkernel its step's words as one line, or a message when it has nothing, never a line break", async () => {
    expect(parseLoader(["media"])).toBe("media");
    const stores = memoryStores();
    const script = await bootProfile(stores, [MAC], "10.0.0.50", api, T0, { graph: "Graph.SKU.Discovery" }, "media");
    const [node] = await stores.nodes.list();
    const [workflow] = await stores.workflows.list();
    expect(script.endsWith("\n")).toBe(true);
    expect(script.split("\n")).toHaveLength(2);
    const [kind, ...words] = script.trim().split(" ");
    expect(kind).toBe("args");
    expect(words).toEqual(
      expect.arrayContaining([
        "API_BASE=http://10.0.0.1:9080/api/current",
        `NODE_ID=${node.id}`,
        `BOOT_TOKEN=${workflow.bootToken}`,
        "BOOTIF=01-52-54-00-5b-00-07",
        "no_timer_check",
        "OVERLAYFS=http://10.0.0.1:9080/common/discovery.overlay.cpio.gz",
      ]),
    );
    expect(words.some((word) => word.startsWith("initrd="))).toBe(false);
    expect(mediaProfile("install-centos.ipxe", { options: {}, api, nodeId: "n", mac: MAC })).toMatch(
      /^message The boot profile install-centos.ipxe has no virtual media form/,
    );
    expect(await bootProfile(memoryStores(), [MAC], undefined, api, T0, { graph: undefined }, "media")).toMatch(/^message Discovered node/);
    expect(await bootProfile(memoryStores(), [], undefined, api, T0, { graph: undefined }, "media")).toBe(
      "message A media profile request names its MAC (?macs=)\n",
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const answer = mediaProfile(text, { options: {}, api, nodeId: "n", mac: MAC });
        expect(answer.split("\n")).toHaveLength(2);
      }),
    );
  });
});
