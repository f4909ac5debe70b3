import { ConflictError } from "../../../../lib/errors";
import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { machineCredential } from "../../../../lib/provisioning/cloudInit/instanceService";
import { acceptResults, nextCommands } from "../../../../lib/provisioning/discovery/microkernel";
import { nodeTimeline } from "../../../../lib/provisioning/installReports/timeline";
import { type Actor, listActions, performAction } from "../../../../lib/provisioning/lifecycle/actionService";
import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { setNodeSshSettings } from "../../../../lib/provisioning/nodes/sshService";
import {
  cancelNodeWorkflow,
  completeNodeInstall,
  getWorkflow,
  startWorkflow,
} from "../../../../lib/provisioning/workflows/workflowService";
import { aCatalog, later, memoryStores, replacing, type Stores, T0 } from "./setUp";

/** An administrator of every site: may take any action on any machine, whoever holds it. */
const ADMIN: Actor = { name: "anonymous", memberOf: [], administers: () => true };

const api = apiContextFor("http://10.0.0.1:9080");
const settings = { releaseErase: "quick" as const };
const MAC = "52:54:00:00:53:01";
/** An OpenSSH ed25519 public key line: its blob names its type, then 32 bytes. */
const blob = Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from("ssh-ed25519"), Buffer.from([0, 0, 0, 32]), Buffer.alloc(32, 7)]);
const KEY = `ssh-ed25519 ${blob.toString("base64")} ops@lab`;

/** A discovered node with a catalog and the noop OBM service: what provide asks for. */
async function discovered(stores: Stores, obm = true) {
  const node = await createNode(
    stores,
    { name: "m1", identifiers: [MAC], ...(obm && { obmSettings: [{ service: "noop-obm-service", config: {} }] }) },
    T0,
  );
  await stores.catalogs.add([aCatalog(node.id, "dmi", {}, "c1")]);
  return node;
}

const act = (stores: Stores, node: string, action: string, options?: Record<string, unknown>, at = later(1)) =>
  performAction(stores, node, { action: action as never, ...(options && { options }) }, api, settings, ADMIN, at);

const stateOfNode = async (stores: Stores, id: string) => (await stores.nodes.get(id))?.provisionState;

/** Runs the microkernel's side of the node's workflow: each command set answered by `answer`, until none is handed out. */
async function microkernel(stores: Stores, node: string, answer: (cmd: string) => { stdout: string; code?: number }, from = 10) {
  const workflow = (await stores.workflows.activeForNode(node))!;
  const caller = { token: workflow.bootToken, requireToken: true };
  const handed: string[] = [];
  for (let at = from; at < from + 20; at += 2) {
    const set = await nextCommands(stores, node, caller, later(at));
    if (!set) break;
    handed.push(...set.tasks.map((task) => task.cmd));
    const results = set.tasks.map((task) => {
      const { stdout, code } = answer(task.cmd);
      return { cmd: task.cmd, stdout, stderr: "", error: code ? { code } : null };
    });
    await acceptResults(stores, node, results, caller, later(at + 1));
  }
  return handed;
}

const ERASED = JSON.stringify([
  { disk: "/dev/nvme0n1", method: "wipe-signatures+discard", bytes: 8589934592, seconds: 0.4, result: "erased" },
]);

async function readyNode(stores: Stores) {
  const node = await discovered(stores);
  await act(stores, node.id, "provide");
  return node;
}

describe("a node's life-cycle actions (issue 53)", () => {
  it("makes a catalogued node with its BMC set ready; without either, a 409 saying which, the node unchanged", async () => {
    const stores = memoryStores();
    const bare = await createNode(stores, { name: "bare", identifiers: ["52:54:00:00:53:09"] }, T0);
    await expect(act(stores, bare.id, "provide")).rejects.toMatchObject({
      kind: "conflict",
      message: expect.stringMatching(/has no OBM setting/),
    });
    await stores.nodes.update(bare.id, (current) => ({ ...current, obmSettings: [{ service: "noop-obm-service", config: {} }] }));
    await expect(act(stores, bare.id, "provide")).rejects.toThrow(/has no catalogs: discover it/);
    expect(await stateOfNode(stores, bare.id)).toBe("discovered");
    const node = await discovered(stores);
    const { node: after, workflow } = await act(stores, MAC, "provide");
    // A graph with nothing to do on the machine ends at once: the node is already ready.
    expect(workflow).toMatchObject({ injectableName: "Graph.Lifecycle.Provide", _status: "succeeded", lifecycle: { action: "provide" } });
    expect(after).toMatchObject({ provisionState: "ready", provisioning: { action: "provide", workflowId: workflow.instanceId } });
    expect(await stateOfNode(stores, node.id)).toBe("ready");
  });

  it("allocates to an owner with a purpose (400 with an option the action does not take) and deallocates", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    await expect(act(stores, node.id, "allocate", { owner: "a", colour: "red" })).rejects.toThrow(
      "Action allocate takes no option colour (it takes owner, purpose)",
    );
    await expect(act(stores, node.id, "retire", { now: true })).rejects.toThrow("Action retire takes no option now (it takes none)");
    const { node: allocated } = await act(stores, node.id, "allocate", { owner: "team-a", purpose: "CI runners" });
    expect(allocated).toMatchObject({ provisionState: "allocated", provisioning: { owner: "team-a", purpose: "CI runners" } });
    const { node: back } = await act(stores, node.id, "deallocate", undefined, later(2));
    expect(back.provisionState).toBe("ready");
    expect(back.provisioning).not.toHaveProperty("owner");
  });

  it("binds the owner to the caller: themselves unless they name a group of theirs; an administrator of the site names anyone", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    const bob: Actor = { name: "oidc:bob@example.com", memberOf: ["group:rack-1-ops"], administers: () => false };
    const own = await performAction(stores, node.id, { action: "allocate" }, api, settings, bob, later(1));
    expect(own.node.provisioning?.owner).toBe("oidc:bob@example.com");
    await act(stores, node.id, "deallocate", undefined, later(2));
    await expect(
      performAction(stores, node.id, { action: "allocate", options: { owner: "alice" } }, api, settings, bob, later(3)),
    ).rejects.toMatchObject({
      kind: "bad-request",
      message: expect.stringMatching(/^options\.owner must be you \(oidc:bob@example\.com\) or a group of yours \(group:rack-1-ops\)/),
    });
    const team = await performAction(
      stores,
      node.id,
      { action: "allocate", options: { owner: "group:rack-1-ops" } },
      api,
      settings,
      bob,
      later(4),
    );
    expect(team.node.provisioning?.owner).toBe("group:rack-1-ops");
    await act(stores, node.id, "deallocate", undefined, later(5));
    const handed = await act(stores, node.id, "allocate", { owner: "client:automation" }, later(6));
    expect(handed.node.provisioning?.owner).toBe("client:automation");
  });

  it("lets only the owner (or a group of theirs) and an administrator of the machine's site act on a held machine", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    await stores.nodes.update(node.id, (current) => ({ ...current, site: "rack-1" }));
    await act(stores, node.id, "allocate", { owner: "group:rack-1-ops" }, later(1));
    const carol: Actor = { name: "oidc:carol@example.com", memberOf: ["group:sales"], administers: (site) => site === "rack-2" };
    for (const action of ["deallocate", "deploy"] as const)
      await expect(
        performAction(
          stores,
          node.id,
          { action, options: action === "deploy" ? { graph: "Graph.InstallCoreOS" } : undefined },
          api,
          settings,
          carol,
          later(2),
        ),
      ).rejects.toMatchObject({
        kind: "forbidden",
        message: `Node ${node.id} is held by group:rack-1-ops: only its owner or an administrator of its site may ${action} it`,
      });
    expect(await stateOfNode(stores, node.id)).toBe("allocated");
    const member: Actor = { name: "bob", memberOf: ["group:rack-1-ops"], administers: () => false };
    const handedBack = await performAction(stores, node.id, { action: "deallocate" }, api, settings, member, later(3));
    expect(handedBack.node.provisionState).toBe("ready");
    await act(stores, node.id, "allocate", { owner: "group:rack-1-ops" }, later(4));
    // Rescue, redeploy and release of the deployed machine: the same rule.
    await stores.nodes.update(node.id, (current) => ({ ...current, provisionState: "deployed" }));
    for (const action of ["rescue", "redeploy", "release"] as const)
      await expect(
        performAction(
          stores,
          node.id,
          { action, options: action === "rescue" ? { sshKey: "x" } : undefined },
          api,
          settings,
          carol,
          later(4),
        ),
      ).rejects.toMatchObject({ kind: "forbidden" });
    const siteAdmin: Actor = { name: "dave", memberOf: [], administers: (site) => site === "rack-1" };
    const released = await performAction(stores, node.id, { action: "release" }, api, settings, siteAdmin, later(5));
    expect(released.node.provisionState).toBe("releasing");
  });

  it("refuses an action its state does not allow with a 409 naming both, and any action while a workflow runs", async () => {
    const stores = memoryStores();
    const node = await discovered(stores);
    await expect(act(stores, node.id, "release")).rejects.toMatchObject({
      kind: "conflict",
      message: expect.stringContaining("Action release is not allowed while the node is discovered"),
    });
    await startWorkflow(stores, node.id, { name: "Graph.Discovery", options: {} }, api, T0);
    await expect(act(stores, node.id, "provide")).rejects.toMatchObject({
      kind: "conflict",
      message: expect.stringMatching(/runs workflow Graph.Discovery .*: an action starts once it has ended/),
    });
    expect(await stateOfNode(stores, node.id)).toBe("discovered");
    await expect(act(stores, "nope", "provide")).rejects.toMatchObject({ kind: "not-found" });
  });

  it("runs two actions on one node side by side as one: the other is a 409, and the node ends where the one took it", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    const outcomes = await Promise.allSettled([act(stores, node.id, "retire"), act(stores, node.id, "allocate", { owner: "b" })]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ kind: "conflict" });
    const won = outcomes.find((outcome) => outcome.status === "fulfilled") as PromiseFulfilledResult<{ node: { provisionState: string } }>;
    expect(await stateOfNode(stores, node.id)).toBe(won.value.node.provisionState);
    expect((await stores.workflows.listForNode(node.id)).filter((workflow) => workflow.lifecycle).length).toBe(2);
  });

  it("deploys with an install graph (404 for none, 400 for a graph that installs nothing), keeps its graph, and is deployed when the install completes", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    await expect(act(stores, node.id, "deploy")).rejects.toThrow("options.graph must be a non-empty string");
    await expect(act(stores, node.id, "deploy", { graph: "Graph.Nope" })).rejects.toMatchObject({ kind: "not-found" });
    await expect(act(stores, node.id, "deploy", { graph: "Graph.noop-example" })).rejects.toThrow(/installs nothing/);
    await expect(act(stores, node.id, "deploy", { graph: "Graph.InstallUbuntu", options: [] })).rejects.toThrow(
      "options.options must be a JSON object",
    );
    const options = { "install-ubuntu": { version: "trusty", rootPassword: "s3cret" } };
    const { node: deploying, workflow } = await act(stores, node.id, "deploy", { graph: "Graph.InstallUbuntu", options });
    expect(deploying).toMatchObject({ provisionState: "deploying", provisioning: { workflowId: workflow.instanceId } });
    // The options a redeploy would run again, never their secrets.
    expect(deploying.provisioning?.deploy).toEqual({
      graph: "Graph.InstallUbuntu",
      options: { "install-ubuntu": { version: "trusty", rootPassword: "REDACTED" } },
    });
    await completeNodeInstall(stores, deploying, later(5));
    expect(await stateOfNode(stores, node.id)).toBe("deployed");
    // Redeploy without options: the last deploy's were redacted, so it asks for them again.
    await expect(act(stores, node.id, "redeploy", undefined, later(6))).rejects.toThrow(/held secrets, which are not kept/);
    expect(await stateOfNode(stores, node.id)).toBe("deployed");
  });

  it("returns the node to where it was when the action's graph does not start (an option its install refuses)", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    await expect(act(stores, node.id, "deploy", { graph: "Graph.InstallImage", options: { "install-os": {} } })).rejects.toMatchObject({
      kind: "bad-request",
    });
    expect(await stores.nodes.get(node.id)).toMatchObject({ provisionState: "ready", provisioning: { action: "provide" } });
  });

  it("redeploys: the old install's machine credential ends at once, before the new install's first fetch", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    const deploy = { graph: "Graph.InstallCoreOS", options: {} };
    const { node: deploying, workflow } = await act(stores, node.id, "deploy", deploy);
    await machineCredential(stores, deploying, { id: workflow.instanceId, bootToken: workflow.bootToken }, api, later(2));
    expect((await stores.instances.get(node.id))?.machineSecrets).toHaveLength(1);
    await completeNodeInstall(stores, deploying, later(3));
    const { node: again, workflow: second } = await act(stores, node.id, "redeploy", undefined, later(4));
    expect(second.injectableName).toBe("Graph.InstallCoreOS");
    expect(again.provisionState).toBe("deploying");
    expect(await stores.instances.get(node.id)).toMatchObject({ machineSecrets: [] });
    expect(await stores.instances.get(node.id)).not.toHaveProperty("workflowId");
  });

  it("releases: the microkernel erases every disk (the report kept as its erase catalog), powers off, and the node is ready with no owner", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    await act(stores, node.id, "allocate", { owner: "team-a" });
    await expect(act(stores, node.id, "release", { erase: "gentle" }, later(2))).rejects.toThrow(
      "options.erase must be one of quick, full",
    );
    const { node: releasing, workflow } = await act(stores, node.id, "release", { erase: "full" }, later(2));
    expect(releasing.provisionState).toBe("releasing");
    const handed = await microkernel(stores, node.id, (cmd) => ({ stdout: cmd.startsWith("erase-disks") ? ERASED : "" }));
    expect(handed).toEqual(["erase-disks full", "sudo poweroff"]);
    expect((await getWorkflow(stores, workflow.instanceId, later(40)))._status).toBe("succeeded");
    const after = await stores.nodes.get(node.id);
    expect(after).toMatchObject({ provisionState: "ready", provisioning: { action: "release" } });
    expect(after?.provisioning).not.toHaveProperty("owner");
    expect((await stores.catalogs.latest(node.id, "erase"))?.data).toEqual(JSON.parse(ERASED));
    // The erase report in the node's timeline, a line per disk.
    const timeline = await nodeTimeline(stores, node.id, later(41));
    expect(timeline.entries).toContainEqual(
      expect.objectContaining({
        source: "machine",
        task: "erase-disks",
        what: "erased /dev/nvme0n1 (undefined, wipe-signatures+discard): 8589934592 bytes in 0.4 s".replace("undefined", "?"),
      }),
    );
    // RELEASE_ERASE when the action names none.
    const second = await performAction(stores, node.id, { action: "allocate", options: { owner: "b" } }, api, settings, ADMIN, later(50));
    expect(second.node.provisionState).toBe("allocated");
    const { workflow: quick } = await performAction(
      stores,
      node.id,
      { action: "release" },
      api,
      { releaseErase: "full" },
      ADMIN,
      later(51),
    );
    expect(quick.tasks[Object.keys(quick.tasks).find((id) => quick.tasks[id].label === "erase-disks")!].options.mode).toBe("full");
  });

  it("fails a release whose disk cannot be erased, with the step and the reason on the node; a release from failed runs again", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    await act(stores, node.id, "allocate", { owner: "team-a" });
    await act(stores, node.id, "release", undefined, later(2));
    const refused = [{ disk: "/dev/sda", mode: "quick", result: "failed", answer: "the device is read-only" }, "junk"];
    await microkernel(stores, node.id, () => ({ stdout: JSON.stringify(refused), code: 1 }));
    expect(
      (await nodeTimeline(stores, node.id, later(30))).entries.filter((entry) => entry.task === "erase-disks").map((entry) => entry.what),
    ).toEqual(expect.arrayContaining(["could not erase /dev/sda (quick): the device is read-only", "could not erase ? (?): ?"]));
    const failed = await stores.nodes.get(node.id);
    expect(failed).toMatchObject({
      provisionState: "failed",
      provisioning: { lastError: { action: "release", task: "erase-disks", reason: "failed", message: expect.any(String) } },
    });
    const { node: again } = await act(stores, node.id, "release", undefined, later(60));
    expect(again.provisionState).toBe("releasing");
    expect(again.provisioning).not.toHaveProperty("lastError");
    // Cancelling the action's workflow fails the node, saying so.
    await cancelNodeWorkflow(stores, node.id, later(61));
    expect((await stores.nodes.get(node.id))?.provisioning?.lastError).toMatchObject({ action: "release", reason: "cancelled" });
  });

  it("rescues with the operator's key (given, or the node's SSH settings'; a bad key is a 400) and unrescues to deployed", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    await act(stores, node.id, "deploy", { graph: "Graph.InstallCoreOS" });
    await completeNodeInstall(stores, (await stores.nodes.get(node.id))!, later(2));
    await expect(act(stores, node.id, "rescue", undefined, later(3))).rejects.toThrow(/needs options.sshKey/);
    await expect(act(stores, node.id, "rescue", { sshKey: "-----BEGIN OPENSSH PRIVATE KEY-----" }, later(3))).rejects.toThrow(
      /private key/,
    );
    await setNodeSshSettings(stores, node.id, { host: "h", user: "root", password: "p", publicKey: KEY }, later(3));
    const { node: rescuing } = await act(stores, node.id, "rescue", undefined, later(4));
    expect(rescuing.provisionState).toBe("rescuing");
    const handed = await microkernel(stores, node.id, () => ({ stdout: "" }));
    expect(handed).toEqual([`rescue-ssh ${Buffer.from(KEY).toString("base64")}`]);
    expect(await stateOfNode(stores, node.id)).toBe("rescue");
    const { workflow } = await act(stores, node.id, "unrescue", undefined, later(40));
    expect(Object.values(workflow.tasks).map((task) => task.injectableName)).toEqual(["Task.Obm.Node.DiskBoot", "Task.Obm.Node.Reboot"]);
    expect(await stateOfNode(stores, node.id)).toBe("deployed");
  });

  it("retires a node (powering it off) and provides it again", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    expect((await act(stores, node.id, "retire")).node.provisionState).toBe("retired");
    expect((await act(stores, node.id, "provide", undefined, later(2))).node.provisionState).toBe("ready");
  });

  it("lists each action with whether the node's state allows it now", async () => {
    const stores = memoryStores();
    const node = await discovered(stores);
    const list = await listActions(stores, MAC);
    expect(list).toMatchObject({ node: node.id, provisionState: "discovered" });
    expect(list.actions.filter((entry) => entry.allowed).map((entry) => entry.action)).toEqual(["provide", "retire"]);
    expect(list.actions.find((entry) => entry.action === "release")).toMatchObject({ destructive: true, to: "ready" });
  });

  it("leaves the node in its transitional state's hands when the store fails mid-way: the begun action is undone if the graph cannot start", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    const failing = replacing(stores, "workflows", {
      create: () => Promise.reject(new Error("store down")),
    });
    await expect(act(failing, node.id, "retire")).rejects.toThrow("store down");
    expect(await stateOfNode(stores, node.id)).toBe("ready");
  });
  it("checks each option as the docs say: bounds, blanks, options an action does not take, the last deploy's graph", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    // Each action that takes no option, from a state it starts from.
    for (const [action, from] of [
      ["provide", "discovered"],
      ["deallocate", "allocated"],
      ["unrescue", "rescue"],
    ] as const) {
      await stores.nodes.update(node.id, (current) => ({ ...current, provisionState: from }));
      await expect(act(stores, node.id, action, { x: 1 })).rejects.toThrow(`Action ${action} takes no option x (it takes none)`);
    }
    await stores.nodes.update(node.id, (current) => ({ ...current, provisionState: "ready" }));
    await expect(act(stores, node.id, "retire", { x: 1 })).rejects.toThrow("Action retire takes no option x (it takes none)");
    await expect(act(stores, node.id, "allocate", { owner: "   " })).rejects.toThrow("options.owner must be a non-empty string");
    await expect(act(stores, node.id, "allocate", { owner: "o".repeat(201) })).rejects.toThrow("of at most 200 characters");
    await expect(act(stores, node.id, "allocate", { owner: 7 })).rejects.toThrow("options.owner must be");
    await expect(act(stores, node.id, "deploy", { graph: "Graph.Nope" })).rejects.toThrow("Graph definition not found for Graph.Nope");
    const { node: allocated } = await act(stores, node.id, "allocate", { owner: "o".repeat(200) });
    expect(allocated.provisioning).not.toHaveProperty("purpose");
    // A node deployed before deploys were recorded: redeploy must name its graph.
    await stores.nodes.update(node.id, (current) => ({ ...current, provisionState: "deployed" }));
    await expect(act(stores, node.id, "redeploy", undefined, later(2))).rejects.toThrow("options.graph must be a non-empty string");
    const { node: redeploying } = await act(stores, node.id, "redeploy", { graph: "Graph.InstallCoreOS" }, later(3));
    expect(redeploying.provisioning?.deploy).toEqual({ graph: "Graph.InstallCoreOS", options: {} });
  });

  it("ends no credential on a first deploy, and forgets the installed system's instance as a release begins", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    await machineCredential(stores, node, { id: "an-older-install" }, api, later(1));
    await act(stores, node.id, "deploy", { graph: "Graph.InstallCoreOS" }, later(2));
    expect((await stores.instances.get(node.id))?.machineSecrets).toHaveLength(1);
    await completeNodeInstall(stores, (await stores.nodes.get(node.id))!, later(3));
    await act(stores, node.id, "release", undefined, later(4));
    expect(await stores.instances.get(node.id)).toBeUndefined();
  });

  it("is a 409 saying so when another workflow takes the node between the check and the start, the node back where it was", async () => {
    const stores = memoryStores();
    const node = await readyNode(stores);
    const racing = replacing(stores, "workflows", {
      create: () => Promise.reject(new ConflictError("taken")),
    });
    await expect(act(racing, node.id, "retire")).rejects.toMatchObject({
      kind: "conflict",
      message: `Node ${node.id} began running another workflow: try the action again once it has ended`,
    });
    expect(await stateOfNode(stores, node.id)).toBe("ready");
  });
});
