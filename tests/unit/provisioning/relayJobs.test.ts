import { apiContextFor } from "../../../lib/provisioning/apiContext";
import { graphDefinition } from "../../../lib/provisioning/graphs/graphLibrary";
import { reportJobResult } from "../../../lib/provisioning/relayResults/reportJobResult";
import { LEASE_MS, MAX_ATTEMPTS, PICKUP_DEADLINE_MS } from "../../../lib/provisioning/relays/job";
import { enqueueJob, leaseJobs, recordResult, siteJobs, startActing } from "../../../lib/provisioning/relays/jobService";
import { setNodeSite } from "../../../lib/provisioning/relays/nodeSite";
import { relayTaskOutcomes } from "../../../lib/provisioning/relays/relayTasks";
import { authenticateRelay, createRelayCredential, createSite, deleteSite } from "../../../lib/provisioning/relays/siteService";
import { buildWorkflow } from "../../../lib/provisioning/workflowEngine/buildWorkflow";
import { advanceWorkflow } from "../../../lib/provisioning/workflowEngine/progress";
import { refreshWorkflow, startWorkflow } from "../../../lib/provisioning/workflows/workflowService";
import { memoryProvisioningStores } from "../../../lib/store/memory/provisioningStores";

/** Relay jobs against the memory stores, with the clock in the test's hands. */
describe("relay jobs", () => {
  const t0 = new Date("2026-11-23T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const setUp = async () => {
    const stores = memoryProvisioningStores({ capacity: 10_000, maxBytes: 64 << 20 });
    const site = await createSite(stores, { name: "lab" }, t0);
    const other = await createSite(stores, { name: "elsewhere" }, t0);
    const { token } = await createRelayCredential(stores, site.id, { name: "a" }, t0);
    const { token: otherToken } = await createRelayCredential(stores, other.id, {}, t0);
    const relayA = await authenticateRelay(stores, `Bearer ${token}`, "0.1.0", t0);
    const relayB = await authenticateRelay(
      stores,
      `Bearer ${(await createRelayCredential(stores, site.id, { name: "b" }, t0)).token}`,
      "0.1.0",
      t0,
    );
    const foreign = await authenticateRelay(stores, `Bearer ${otherToken}`, undefined, t0);
    const node = await stores.nodes.create({
      id: "0123456789abcdef01234567",
      name: "n1",
      identifiers: ["52:54:00:00:00:01"],
      type: "compute",
      obmSettings: [{ service: "ipmi-obm-service", config: { host: "10.0.0.9", user: "admin", password: "secret" } }],
      autoDiscover: false,
      sku: null,
      relations: [],
      tags: [],
      createdAt: t0.toISOString(),
      updatedAt: t0.toISOString(),
      site: site.id,
    });
    const power = (id?: string) =>
      enqueueJob(stores, { id, node, obm: node.obmSettings[0], action: { kind: "power", action: "on" }, requestedBy: "test" }, t0);
    return { stores, site, other, relayA, relayB, foreign, node, power };
  };

  it.each([
    ["enabled", true],
    ["disabled", true],
    ["unsupported", false],
    [undefined, false],
  ])("boots a machine whose firmware reported Secure Boot %s from PXE in UEFI mode: %s (issue 50)", async (state, uefi) => {
    const { stores, node } = await setUp();
    const machine = { ...node, ...(state && { secureBoot: { state, reportedAt: t0.toISOString() } }) };
    const options = { "install-os": { image: "http://mirror.example/debian-12.raw.zst", installDisk: { byId: "ata-disk" } } };
    const graph = buildWorkflow(graphDefinition("Graph.InstallImage")!, options, node.id, apiContextFor("http://x"), t0);
    const workflow = advanceWorkflow(graph, node.obmSettings, t0);
    expect(await relayTaskOutcomes(stores, workflow, machine, t0)).toEqual([]);
    const [job] = await stores.relayJobs.list();
    expect(job.action).toEqual({ kind: "bootDevice", device: "pxe", uefi, persistent: false });
  });

  it("hands a job to one relay at a time: two relays polling at once never both take it", async () => {
    const { stores, relayA, relayB, power } = await setUp();
    await power();
    const [a, b] = await Promise.all([leaseJobs(stores, relayA, 8, t0), leaseJobs(stores, relayB, 8, t0)]);
    expect(a.length + b.length).toBe(1);
  });

  it("gives a job whose relay died to another once the lease runs out, and takes the first result of any of its leases", async () => {
    const { stores, relayA, relayB, power } = await setUp();
    const job = await power();
    const [first] = await leaseJobs(stores, relayA, 1, t0);
    expect(await leaseJobs(stores, relayB, 1, at(LEASE_MS - 1))).toEqual([]);
    const [second] = await leaseJobs(stores, relayB, 1, at(LEASE_MS));
    expect(second).toMatchObject({ id: job.id, attempts: 2, lease: { relay: relayB.id }, pastLeases: [first.lease!.id] });
    await expect(
      recordResult(stores, relayA, job.id, { leaseId: "never-given", ok: true, output: "" }, at(LEASE_MS + 1)),
    ).rejects.toMatchObject({
      kind: "conflict",
    });
    // The slow BMC's answer under the lease that ran out comes first: it is the job's (issue 50).
    const late = await recordResult(stores, relayA, job.id, { leaseId: first.lease!.id, ok: true, output: "late" }, at(LEASE_MS + 1));
    expect(late).toMatchObject({ first: true, job: { state: "succeeded", result: { relay: relayA.id, output: "late" } } });
    // The live lease's result, and the same result again (a relay that did not hear the answer), change nothing.
    for (const [relay, lease] of [
      [relayB, second],
      [relayA, first],
    ] as const) {
      const again = await recordResult(stores, relay, job.id, { leaseId: lease.lease!.id, ok: false, output: "" }, at(LEASE_MS + 3));
      expect(again).toMatchObject({ first: false, job: { state: "succeeded", result: { output: "late" } } });
    }
  });

  it("never runs a reset twice: a relay that stopped after saying it was acting leaves the job failed, not handed out", async () => {
    const { stores, site, node, relayA, relayB } = await setUp();
    const reset = await enqueueJob(
      stores,
      { node, obm: node.obmSettings[0], action: { kind: "power", action: "reset" }, requestedBy: "test" },
      t0,
    );
    const [taken] = await leaseJobs(stores, relayA, 1, t0);
    await expect(startActing(stores, relayB, reset.id, "not-its-lease", t0)).rejects.toMatchObject({ kind: "conflict" });
    expect((await startActing(stores, relayA, reset.id, taken.lease!.id, at(10))).actingSince).toBe(at(10).toISOString());
    expect(await leaseJobs(stores, relayB, 1, at(LEASE_MS))).toEqual([]);
    const [failed] = (await siteJobs(stores, site.id, at(LEASE_MS))).filter((job) => job.id === reset.id);
    expect(failed).toMatchObject({
      state: "failed",
      result: { error: expect.stringMatching(/^The relay stopped while acting \(power reset\)/) },
    });
    // An action that may run twice (power on) is handed out again instead.
    const on = await enqueueJob(
      stores,
      { node, obm: node.obmSettings[0], action: { kind: "power", action: "on" }, requestedBy: "test" },
      at(LEASE_MS),
    );
    const [first] = await leaseJobs(stores, relayA, 1, at(LEASE_MS));
    expect((await startActing(stores, relayA, on.id, first.lease!.id, at(LEASE_MS + 1))).actingSince).toBeUndefined();
    expect(await leaseJobs(stores, relayB, 1, at(2 * LEASE_MS))).toEqual([expect.objectContaining({ id: on.id, attempts: 2 })]);
  });

  it("makes one job of the same id asked for twice (a workflow's task)", async () => {
    const { stores, site, power } = await setUp();
    await power("task-1");
    await power("task-1");
    expect(await siteJobs(stores, site.id, t0)).toHaveLength(1);
  });

  it("fails a job no relay took by its deadline, and one taken too often without a result", async () => {
    const { stores, site, relayA, power } = await setUp();
    const untaken = await power();
    const [late] = await siteJobs(stores, site.id, at(PICKUP_DEADLINE_MS));
    expect(late).toMatchObject({ id: untaken.id, state: "failed", result: { error: expect.stringMatching(/^No relay online for site /) } });
    expect(await leaseJobs(stores, relayA, 1, at(PICKUP_DEADLINE_MS))).toEqual([]);

    const flaky = await power();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1)
      expect(await leaseJobs(stores, relayA, 1, at(attempt * LEASE_MS))).toHaveLength(1);
    const [given] = (await siteJobs(stores, site.id, at(MAX_ATTEMPTS * LEASE_MS))).filter((job) => job.id === flaky.id);
    expect(given).toMatchObject({
      state: "failed",
      result: { error: `The site's relays took the job ${MAX_ATTEMPTS} times and never reported a result` },
    });
  });

  it("shows a site's jobs to its own relays only", async () => {
    const { stores, relayA, foreign, power } = await setUp();
    const job = await power();
    expect(await leaseJobs(stores, foreign, 8, t0)).toEqual([]);
    const [leased] = await leaseJobs(stores, relayA, 1, t0);
    await expect(recordResult(stores, foreign, job.id, { leaseId: leased.lease!.id, ok: true, output: "" }, t0)).rejects.toMatchObject({
      kind: "not-found",
    });
  });

  it("fails a workflow's OBM task, and the graph, when no relay of the site takes its job in time", async () => {
    const { stores, site, node } = await setUp();
    const api = apiContextFor("http://localhost:3000", "http://localhost:3000");
    const workflow = await startWorkflow(stores, node.id, { name: "Graph.Reboot.Node", options: {} }, api, t0);
    expect((await siteJobs(stores, site.id, t0)).map((job) => job.task?.workflow)).toEqual([workflow.instanceId]);
    const later = await refreshWorkflow(stores, workflow, at(PICKUP_DEADLINE_MS));
    expect(later._status).toBe("failed");
    expect(Object.values(later.tasks)[0].error).toMatch(/^power reboot: No relay online for site /);
  });

  it("ends a workflow's OBM task with the relay's result, and keeps the power the BMC reported", async () => {
    const { stores, relayA, node } = await setUp();
    const api = apiContextFor("http://localhost:3000", "http://localhost:3000");
    const workflow = await startWorkflow(stores, node.id, { name: "Graph.PowerOn.Node", options: {} }, api, t0);
    const [job] = await leaseJobs(stores, relayA, 1, t0);
    await reportJobResult(stores, relayA, job.id, { leaseId: job.lease!.id, ok: true, output: "Chassis Power Control: Up/On" }, at(1000));
    expect((await stores.workflows.get(workflow.instanceId))?._status).toBe("succeeded");
    expect((await stores.nodes.get(node.id))?.power).toEqual({ state: "on", readAt: at(1000).toISOString() });
  });

  it("refuses to queue work for a node of no site, and to delete a site its nodes or relays name", async () => {
    const { stores, site, node } = await setUp();
    await expect(deleteSite(stores, site.id)).rejects.toMatchObject({ kind: "conflict" });
    const outside = await setNodeSite(stores, node.id, null, t0);
    expect(outside.site).toBeUndefined();
    const request = { node: outside, obm: outside.obmSettings[0], action: { kind: "power", action: "on" } as const, requestedBy: "test" };
    await expect(enqueueJob(stores, request, t0)).rejects.toMatchObject({
      kind: "bad-request",
      message: expect.stringMatching(/belongs to no site/),
    });
  });

  it.each([undefined, "", "Basic abc", "Bearer x", "Bearer 0123456789abcdef01234567.short"])(
    "refuses the credential %p (401)",
    async (header) => {
      const { stores } = await setUp();
      await expect(authenticateRelay(stores, header, undefined, t0)).rejects.toMatchObject({ kind: "unauthorized" });
    },
  );
});
