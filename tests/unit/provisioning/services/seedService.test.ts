import { bootProfile } from "../../../../lib/provisioning/boot/bootService";
import { issueInstanceCredential, machineCredential, setUserData } from "../../../../lib/provisioning/cloudInit/instanceService";
import { seedDocument } from "../../../../lib/provisioning/cloudInit/seedService";
import { cancelWorkflow } from "../../../../lib/provisioning/workflowEngine/progress";
import { startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { API, aMachine, MAC } from "../installReports/support";
import { aNode, anInstall, later, memoryStores, T0 } from "./setUp";

const seed = (stores: ReturnType<typeof memoryStores>, credential: string, path: string) => seedDocument(stores, credential, path, API, T0);

describe("the EC2-style tree beside the NoCloud seed (issue 26)", () => {
  it("lists and answers meta-data under latest/ and 2009-04-04/, with the node's SSH key", async () => {
    const stores = memoryStores();
    const node = await aNode(stores, "db-2");
    await stores.nodes.update(node.id, (current) => ({ ...current, sshSettings: { publicKey: "ssh-ed25519 AAAA test" } }));
    const { credential, instanceId } = await issueInstanceCredential(stores, node.id, API, T0);
    for (const version of ["latest", "2009-04-04"]) {
      expect(await seed(stores, credential, `${version}/meta-data/`)).toBe("instance-id\nlocal-hostname\nhostname\npublic-keys/\n");
      expect(await seed(stores, credential, `${version}/meta-data/instance-id`)).toBe(instanceId);
      expect(await seed(stores, credential, `${version}/meta-data/hostname`)).toBe("db-2");
      expect(await seed(stores, credential, `${version}/meta-data/public-keys/`)).toBe("0=key-0\n");
      expect(await seed(stores, credential, `${version}/meta-data/public-keys/0`)).toBe("openssh-key\n");
      expect(await seed(stores, credential, `${version}/meta-data/public-keys/0/openssh-key`)).toBe("ssh-ed25519 AAAA test\n");
      await expect(seed(stores, credential, `${version}/meta-data/public-keys/1/openssh-key`)).rejects.toMatchObject({ kind: "not-found" });
      // No user-data: a 404, which cloud-init's Ec2 datasource reads as none.
      await expect(seed(stores, credential, `${version}/user-data`)).rejects.toMatchObject({ kind: "not-found" });
      expect(await seed(stores, credential, version)).toBe("meta-data\n");
    }
    await setUserData(stores, node.id, "#cloud-config\n{}\n", later(1));
    expect(await seed(stores, credential, "latest/user-data")).toBe("#cloud-config\n{}\n");
    expect(await seed(stores, credential, "latest")).toBe("meta-data\nuser-data\n");
  });

  it("answers a newer dated version with a 404 at once, before reading anything", async () => {
    const stores = memoryStores();
    const reads = jest.spyOn(stores.instances, "get");
    for (const path of ["2021-03-23/meta-data/instance-id", "2016-09-02/dynamic/instance-identity/document"]) {
      await expect(seed(stores, "0123456789abcdef01234567.x", path)).rejects.toThrow(
        /No metadata version \d{4}-\d\d-\d\d: this service serves latest and 2009-04-04/,
      );
    }
    for (const path of ["other", "meta-data/x", "autoinstall/x/y"])
      await expect(seed(stores, "a.b", path)).rejects.toMatchObject({ kind: "not-found" });
    expect(reads).not.toHaveBeenCalled();
  });
});

describe("the machine's credentials from its install workflow (issue 26)", () => {
  it("hands the same credential to every fetch of one install, starts a new instance per workflow, and ends the install before's", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const install = await anInstall(stores, node.id, "token-of-wf-1");
    const first = await machineCredential(stores, node, install, API, T0);
    const second = await machineCredential(stores, node, install, API, later(1));
    expect(second).toEqual(first);
    expect(await seed(stores, first.credential, "meta-data")).toContain(first.instanceId);
    // The install succeeded (its credential still reads: the installed system's seed); then another.
    await stores.workflows.update(install.id, (current) => ({ ...current, _status: "succeeded" }));
    expect(await seed(stores, first.credential, "meta-data")).toContain(first.instanceId);
    const next = await machineCredential(stores, node, await anInstall(stores, node.id, "token-of-wf-2"), API, later(2));
    expect(next.instanceId).not.toBe(first.instanceId);
    expect(next.credential).not.toBe(first.credential);
    await expect(seed(stores, first.credential, "meta-data")).rejects.toThrow("No such seed");
    expect(await seed(stores, next.credential, "meta-data")).toContain(next.instanceId);
  });

  it("ends the machine's credential with its install: cancelled, or an operator's reinstall (issue 50)", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const install = await anInstall(stores, node.id, "token-of-wf-1");
    const held = await machineCredential(stores, node, install, API, T0);
    expect(await seed(stores, held.credential, "meta-data")).toContain(held.instanceId);
    await stores.workflows.update(install.id, (current) => cancelWorkflow(current, later(1)));
    await expect(seed(stores, held.credential, "user-data")).rejects.toThrow("No such seed");
    // A second install's credential, then the operator's reinstall: the machine's ends, the operator's new one reads.
    const again = await machineCredential(stores, node, await anInstall(stores, node.id, "token-of-wf-2"), API, later(2));
    expect(await seed(stores, again.credential, "meta-data")).toContain(again.instanceId);
    const operators = await issueInstanceCredential(stores, node.id, API, later(3), true);
    await expect(seed(stores, again.credential, "user-data")).rejects.toThrow("No such seed");
    expect(await seed(stores, operators.credential, "meta-data")).toContain(operators.instanceId);
  });

  it("keeps the installer's credential however often the machine asks again (issue 35 §3), writing nothing more", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const install = await anInstall(stores, node.id, "token-of-wf-1");
    const held = await machineCredential(stores, node, install, API, T0);
    const writes = jest.spyOn(stores.instances, "update");
    for (let index = 0; index < 20; index += 1) await machineCredential(stores, node, install, API, later(1 + index));
    expect(writes).not.toHaveBeenCalled();
    expect(await seed(stores, held.credential, "meta-data")).toContain(held.instanceId);
  });

  it("gives a workflow without a boot token a new credential per fetch, the last eight valid", async () => {
    const stores = memoryStores();
    const node = await aNode(stores);
    const issued = [];
    const install = await anInstall(stores, node.id);
    for (let index = 0; index < 9; index += 1) issued.push(await machineCredential(stores, node, install, API, later(index)));
    expect(new Set(issued.map(({ credential }) => credential)).size).toBe(9);
    await expect(seed(stores, issued[0].credential, "meta-data")).rejects.toThrow("No such seed");
    expect(await seed(stores, issued[8].credential, "meta-data")).toContain(issued[0].instanceId);
  });

  it("gives the Ubuntu installer its autoinstall config from the waiting task, and marks it fetched", async () => {
    const stores = memoryStores();
    const node = await aMachine(stores);
    const users = [{ name: "ops", password: "Pa55-word" }];
    const workflow = await startWorkflow(
      stores,
      node.id,
      { name: "Graph.InstallUbuntuAutoinstall", options: { "install-os": { repo: "http://mirror.example/ubuntu", users } } },
      API,
      later(1),
    );
    const profile = await bootProfile(stores, [MAC], "10.0.0.9", API, later(2));
    const seedUrl = /ds=nocloud;s=(\S+)/.exec(profile)![1];
    expect(profile).toContain(
      "http://mirror.example/ubuntu/casper/vmlinuz initrd=initrd ip=dhcp url=http://mirror.example/ubuntu/ubuntu-24.04-live-server-amd64.iso autoinstall",
    );
    expect(seedUrl).toMatch(/\/nocloud\/[0-9a-f]{24}\.[\w-]{43}\/autoinstall\/$/);
    const credential = seedUrl.split("/").at(-3)!;
    const userData = await seedDocument(stores, credential, "autoinstall/user-data", API, later(3));
    expect(userData.startsWith("#cloud-config\n")).toBe(true);
    const config = JSON.parse(userData.slice("#cloud-config\n".length)).autoinstall;
    expect(config.identity).toEqual({ hostname: "web-1", username: "ops", password: expect.stringMatching(/^\$6\$/) });
    expect(JSON.stringify(config)).not.toContain("Pa55-word");
    expect(config.reporting.provisioner).toEqual({ type: "webhook", endpoint: `http://svc.example/api/current/reports/${credential}` });
    expect(config["late-commands"][0][2]).toContain(`"seedfrom":"http://svc.example/api/current/nocloud/${credential}/"`);
    expect(await seedDocument(stores, credential, "autoinstall/meta-data", API, later(3))).toMatch(
      /^instance-id: "i-[0-9a-f]{16}-installer"/,
    );
    const task = Object.values((await stores.workflows.get(workflow.instanceId))!.tasks).find((each) => each.label === "install-os")!;
    expect(task.templateFetchedAt).toBe(later(3).toISOString());
  });

  it("checks today's install options when the workflow starts, and stores nothing on a bad one", async () => {
    const stores = memoryStores();
    const node = await aMachine(stores);
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ["Graph.InstallImage", {}, /image .* must be a file store name or an http\(s\) URL/],
      ["Graph.InstallImage", { image: "a b" }, /image/],
      ["Graph.InstallImage", { image: "ftp://x/y.raw" }, /image/],
      ["Graph.InstallImage", { image: "x.raw", installDisk: "/dev/sda; reboot" }, /installDisk/],
      ["Graph.InstallImage", { image: "x.raw", waitForFirstBoot: "yes" }, /waitForFirstBoot/],
      ["Graph.InstallUbuntuAutoinstall", {}, /repo .* must be an http\(s\) URL/],
      ["Graph.InstallDebian", { repo: "mirror" }, /repo/],
    ];
    for (const [name, options, message] of bad) {
      await expect(startWorkflow(stores, node.id, { name, options: { "install-os": options } }, API, later(1))).rejects.toThrow(message);
    }
    expect(await stores.workflows.list()).toEqual([]);
  });
});

describe("an install's own user-data (issue 26)", () => {
  it("overrides the node's for that install, and is never answered with the workflow", async () => {
    const stores = memoryStores();
    const node = await aMachine(stores);
    await setUserData(stores, node.id, "#cloud-config\nhostname: from-node\n", T0);
    const install = "#cloud-config\nchpasswd: { users: [{ name: ops, password: S3cret-pw }] }\n";
    const workflow = await startWorkflow(
      stores,
      node.id,
      { name: "Graph.InstallImage", options: { "install-os": { image: "x.raw", userData: install } } },
      API,
      later(1),
    );
    const stored = (await stores.workflows.get(workflow.instanceId))!;
    expect(JSON.stringify(Object.values(stored.tasks).map((task) => task.options))).not.toContain("S3cret-pw");
    expect(JSON.stringify(stored.definition.options)).not.toContain("S3cret-pw");
    const { presentWorkflow } = await import("../../../../lib/http/presenters/provisioningPresenters");
    expect(JSON.stringify(presentWorkflow(stored))).not.toContain("S3cret-pw");
    const { credential } = await machineCredential(stores, node, workflow, API, later(2));
    expect(await seed(stores, credential, "user-data")).toBe(install);
    expect(await seed(stores, credential, "latest/user-data")).toBe(install);
    const other = await aMachine(stores, "web-2", "52:54:00:00:00:02");
    await expect(
      startWorkflow(
        stores,
        other.id,
        { name: "Graph.InstallImage", options: { "install-os": { image: "x.raw", userData: 7 } } },
        API,
        later(3),
      ),
    ).rejects.toThrow(/userData must be text/);
  });
});
