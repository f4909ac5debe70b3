import { ConflictError } from "../../../../lib/errors";
import { createPoller, getPoller } from "../../../../lib/provisioning/pollers/pollerService";
import type { PowerState } from "../../../../lib/provisioning/relayResults/reportJobResult";
import { reportJobResult } from "../../../../lib/provisioning/relayResults/reportJobResult";
import { LEASE_MS, PICKUP_DEADLINE_MS, type RelayJob } from "../../../../lib/provisioning/relays/job";
import {
  currentJob,
  enqueueJob,
  findJob,
  leaseJobs,
  recordResult,
  siteJobs,
  startActing,
} from "../../../../lib/provisioning/relays/jobService";
import type { RelayCredential } from "../../../../lib/provisioning/relays/site";
import { createSite } from "../../../../lib/provisioning/relays/siteService";
import { aNode, later, memoryStores, replacing, type Stores, T0 } from "./setUp";

/**
 * The relay job service's refusals and bounds (issue 36's mutation survivors): each refusal's kind
 * and the job it names, leases bounded per request, results recorded once.
 */
describe("relay jobs: refusals, bounds and results", () => {
  const relayOf = (site: string, id = "relay-a"): RelayCredential => ({
    id,
    site,
    name: id,
    secretSha256: "0".repeat(64),
    createdAt: T0.toISOString(),
  });

  const setUp = async () => {
    const stores = memoryStores();
    const site = await createSite(stores, { name: "lab" }, T0);
    const other = await createSite(stores, { name: "elsewhere" }, T0);
    const node = { ...(await aNode(stores)), site: site.id };
    const queue = (action: RelayJob["action"] = { kind: "power", action: "on" }, id?: string, at = T0) =>
      enqueueJob(stores, { id, node, obm: { service: "ipmi-obm-service", config: { host: "10.0.0.9" } }, action, requestedBy: "test" }, at);
    return { stores, site, other, node, queue, relay: relayOf(site.id), foreign: relayOf(other.id, "relay-x") };
  };

  const leaseOne = async (stores: Stores, relay: RelayCredential, at = T0) => {
    const [job] = await leaseJobs(stores, relay, 1, at);
    return job;
  };

  describe("enqueueJob", () => {
    it("refuses a node whose site is an empty name (validation), naming the node", async () => {
      const { stores, node } = await setUp();
      const request = { node: { ...node, site: "" }, obm: node.obmSettings[0] ?? { service: "noop", config: {} } };
      await expect(enqueueJob(stores, { ...request, action: { kind: "power", action: "on" }, requestedBy: "t" }, T0)).rejects.toMatchObject(
        { kind: "bad-request", message: expect.stringContaining(node.id) },
      );
    });

    it("answers the first job for an id asked twice, and passes on a store's other failures", async () => {
      const { stores, node, queue } = await setUp();
      const first = await queue({ kind: "power", action: "on" }, "task-1");
      const again = await queue({ kind: "power", action: "off" }, "task-1", later(5));
      expect(again).toEqual(first);
      const broken = replacing(stores, "relayJobs", { create: () => Promise.reject(new Error("disk on fire")) });
      await expect(
        enqueueJob(
          broken,
          { node: { ...node, id: "other" }, obm: { service: "s", config: {} }, action: { kind: "power", action: "on" }, requestedBy: "t" },
          T0,
        ),
      ).rejects.toThrow("disk on fire");
    });

    it("passes on a conflict for an id whose job then cannot be read", async () => {
      const { stores, node } = await setUp();
      const conflict = new ConflictError("A relay job j1 exists");
      const racing = replacing(stores, "relayJobs", { create: () => Promise.reject(conflict), get: () => Promise.resolve(undefined) });
      const request = {
        id: "j1",
        node,
        obm: { service: "s", config: {} },
        action: { kind: "power", action: "on" } as const,
        requestedBy: "t",
      };
      await expect(enqueueJob(racing, request, T0)).rejects.toBe(conflict);
    });
  });

  describe("leaseJobs", () => {
    it("takes at least one job and at most eight in one request, and as many as asked between", async () => {
      const { stores, relay, queue } = await setUp();
      for (let i = 0; i < 10; i++) await queue();
      expect(await leaseJobs(stores, relay, 0, T0)).toHaveLength(1);
      expect(await leaseJobs(stores, relay, 2, T0)).toHaveLength(2);
      expect(await leaseJobs(stores, relay, 100, T0)).toHaveLength(7);
      const more = await queue();
      expect((await leaseJobs(stores, relay, 100, T0)).map((job) => job.id)).toEqual([more.id]);
    });

    it("skips a job it cannot take (past its pick-up deadline) and takes the next", async () => {
      const { stores, relay, queue } = await setUp();
      const late = await queue({ kind: "power", action: "on" }, "old", T0);
      const fresh = await queue({ kind: "power", action: "off" }, "new", later(PICKUP_DEADLINE_MS - 1));
      const taken = await leaseJobs(stores, relay, 8, later(PICKUP_DEADLINE_MS));
      expect(taken.map((job) => job.id)).toEqual([fresh.id]);
      expect((await stores.relayJobs.get(late.id))?.state).toBe("failed");
    });
  });

  describe("siteJobs and currentJob", () => {
    it("lists a site's jobs only, newest first", async () => {
      const { stores, site, other, queue } = await setUp();
      const a = await queue(undefined, "a");
      const b = await queue(undefined, "b", later(1));
      expect((await siteJobs(stores, site.id, later(2))).map((job) => job.id)).toEqual([b.id, a.id]);
      expect(await siteJobs(stores, other.id, later(2))).toEqual([]);
    });

    it("stores a job that ran out of time as failed, with its reason and no output; one with time left is unchanged", async () => {
      const { stores, queue } = await setUp();
      const job = await queue();
      expect(await currentJob(stores, job, later(1))).toEqual(job);
      const failed = await currentJob(stores, job, later(PICKUP_DEADLINE_MS));
      expect(failed).toMatchObject({
        state: "failed",
        result: { ok: false, output: "", error: expect.stringMatching(/^No relay online/) },
      });
      expect(await stores.relayJobs.get(job.id)).toEqual(failed);
    });
  });

  describe("findJob", () => {
    it("refuses an unknown job (not found), naming at most 64 characters of its id", async () => {
      const { stores } = await setUp();
      await expect(findJob(stores, "nope")).rejects.toMatchObject({ kind: "not-found", message: expect.stringContaining("nope") });
      const long = "x".repeat(2000);
      const refusal = await findJob(stores, long).catch((error) => error);
      expect(refusal.kind).toBe("not-found");
      expect(refusal.message).toContain("x".repeat(64));
      expect(refusal.message).not.toContain("x".repeat(65));
    });
  });

  describe("startActing", () => {
    it("refuses another site's relay as if the job did not exist", async () => {
      const { stores, relay, foreign, queue } = await setUp();
      await queue({ kind: "power", action: "reset" });
      const job = await leaseOne(stores, relay);
      await expect(startActing(stores, foreign, job.id, job.lease!.id, T0)).rejects.toMatchObject({
        kind: "not-found",
        message: expect.stringContaining(job.id),
      });
    });

    it("refuses (conflict) a job not leased, another lease, and a lease that ran out at its very end", async () => {
      const { stores, relay, queue } = await setUp();
      const queued = await queue({ kind: "power", action: "reset" }, "queued");
      await expect(startActing(stores, relay, queued.id, "any", T0)).rejects.toMatchObject({ kind: "conflict" });
      const job = await leaseOne(stores, relay);
      await expect(startActing(stores, relay, job.id, "another", T0)).rejects.toMatchObject({
        kind: "conflict",
        message: expect.stringContaining("another"),
      });
      await expect(startActing(stores, relay, job.id, job.lease!.id, later(LEASE_MS))).rejects.toMatchObject({ kind: "conflict" });
      expect((await startActing(stores, relay, job.id, job.lease!.id, later(LEASE_MS - 1))).actingSince).toBe(
        later(LEASE_MS - 1).toISOString(),
      );
    });
  });

  describe("recordResult", () => {
    it("refuses another site's relay as if the job did not exist, and a result for another lease (conflict)", async () => {
      const { stores, relay, foreign, queue } = await setUp();
      await queue();
      const job = await leaseOne(stores, relay);
      const result = { leaseId: job.lease!.id, ok: true, output: "" };
      await expect(recordResult(stores, foreign, job.id, result, T0)).rejects.toMatchObject({ kind: "not-found" });
      await expect(recordResult(stores, relay, job.id, { ...result, leaseId: "stale" }, T0)).rejects.toMatchObject({
        kind: "conflict",
        message: expect.stringContaining("stale"),
      });
      expect((await stores.relayJobs.get(job.id))?.state).toBe("leased");
    });

    it("keeps a failure's error with its result, and none for a success", async () => {
      const { stores, relay, queue } = await setUp();
      await queue(undefined, "fails");
      await queue(undefined, "works");
      const [fails, works] = await leaseJobs(stores, relay, 2, T0);
      const failed = await recordResult(
        stores,
        relay,
        fails.id,
        { leaseId: fails.lease!.id, ok: false, output: "out", error: "BMC refused" },
        T0,
      );
      expect(failed).toMatchObject({ first: true, job: { state: "failed", result: { ok: false, output: "out", error: "BMC refused" } } });
      const done = await recordResult(stores, relay, works.id, { leaseId: works.lease!.id, ok: true, output: "on" }, T0);
      expect(done.first).toBe(true);
      expect(done.job.result).not.toHaveProperty("error");
    });

    it("answers a failed job as finished to a result sent again, changing nothing", async () => {
      const { stores, relay, queue } = await setUp();
      await queue();
      const job = await leaseOne(stores, relay);
      const result = { leaseId: job.lease!.id, ok: false, output: "", error: "no" };
      await recordResult(stores, relay, job.id, result, T0);
      const again = await recordResult(stores, relay, job.id, { ...result, ok: true, error: undefined }, later(1));
      expect(again).toMatchObject({ first: false, job: { state: "failed", result: { error: "no" } } });
    });

    it("counts a result as not first when the job was finished between its read and its write", async () => {
      const { stores, relay, queue } = await setUp();
      await queue();
      const job = await leaseOne(stores, relay);
      const result = { leaseId: job.lease!.id, ok: true, output: "" };
      // The store's update sees the job already finished by another request.
      const racing = replacing(stores, "relayJobs", {
        update: (id: string, change: (stored: RelayJob) => RelayJob) =>
          stores.relayJobs.update(id, (stored) => change({ ...stored, state: "succeeded" })),
      });
      const answer = await recordResult(racing, relay, job.id, result, T0);
      expect(answer.first).toBe(false);
    });
  });

  describe("reportJobResult: what a result does to the node and its workflow", () => {
    /** The power state kept on the node (an extra key of the node record). */
    const powerOf = async (stores: Stores, id: string) => ((await stores.nodes.get(id))?.power as PowerState | undefined)?.state;

    /** Queues one job, leases it to the relay and reports `output` (ok unless `error`). */
    const reported = async (action: RelayJob["action"], output: string, error?: string) => {
      const context = await setUp();
      const { stores, relay, queue } = context;
      await queue(action);
      const job = await leaseOne(stores, relay);
      const result = { leaseId: job.lease!.id, ok: error === undefined, output, ...(error !== undefined && { error }) };
      await reportJobResult(stores, relay, job.id, result, later(1));
      return { ...context, job, result, power: await powerOf(stores, context.node.id) };
    };

    it("keeps the power state the BMC said (ipmitool's words or Redfish's), else what a successful action set", async () => {
      expect((await reported({ kind: "power", action: "status" }, "Chassis Power is off")).power).toBe("off");
      expect((await reported({ kind: "power", action: "status" }, '{"PowerState": "On"}')).power).toBe("on");
      expect((await reported({ kind: "power", action: "status" }, "no words about power")).power).toBeUndefined();
      expect((await reported({ kind: "power", action: "off" }, "")).power).toBe("off");
      expect((await reported({ kind: "power", action: "soft" }, "")).power).toBe("off");
      expect((await reported({ kind: "power", action: "cycle" }, "")).power).toBe("on");
      expect((await reported({ kind: "power", action: "on" }, "", "BMC refused")).power).toBeUndefined();
      expect((await reported({ kind: "identify", on: true }, "Chassis Power is on")).power).toBeUndefined();
    });

    it("records a poll's result on its poller, and a chassis poll's power on the node", async () => {
      const { stores, relay, queue, node } = await setUp();
      const poller = await createPoller(stores, { type: "ipmi", pollInterval: 60_000, node: node.id, config: { command: "chassis" } }, T0);
      await queue({ kind: "poll", command: "chassis", poller: poller.id });
      const job = await leaseOne(stores, relay);
      // `-c chassis status`-like raw bytes: bit 0 of the second digit is "power on".
      await reportJobResult(stores, relay, job.id, { leaseId: job.lease!.id, ok: true, output: "010000" }, later(1));
      expect((await stores.nodes.get(node.id))?.power).toEqual({ state: "on", readAt: later(1).toISOString() });
      expect((await getPoller(stores, poller.id)).lastFinished).toBe(later(1).toISOString());
      await queue({ kind: "poll", command: "chassis", poller: poller.id }, "second");
      const second = await leaseOne(stores, relay, later(2));
      await reportJobResult(stores, relay, second.id, { leaseId: second.lease!.id, ok: true, output: "000000" }, later(3));
      expect(await powerOf(stores, node.id)).toBe("off");
      await queue({ kind: "poll", command: "sel", poller: poller.id }, "third");
      const third = await leaseOne(stores, relay, later(4));
      await reportJobResult(stores, relay, third.id, { leaseId: third.lease!.id, ok: true, output: "" }, later(5));
      expect((await stores.nodes.get(node.id))?.power).toEqual({ state: "off", readAt: later(3).toISOString() });
    });

    it("changes nothing for a result sent again", async () => {
      const { stores, relay, job, result, node } = await reported({ kind: "power", action: "off" }, "");
      await stores.nodes.update(node.id, (current) => ({ ...current, power: { state: "on", readAt: later(2).toISOString() } }));
      const again = await reportJobResult(stores, relay, job.id, result, later(3));
      expect(again.state).toBe("succeeded");
      expect(await powerOf(stores, node.id)).toBe("on");
    });
  });
});
