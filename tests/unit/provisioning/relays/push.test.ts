import type { RelayJob } from "../../../../lib/provisioning/relays/job";
import { nextLeaseEnd } from "../../../../lib/provisioning/relays/jobService";
import {
  CONNECTION_LIFE_MS,
  closeRelayConnections,
  connectRelay,
  disconnectRelay,
  pingRelay,
  pushingJobs,
  tellRelays,
} from "../../../../lib/provisioning/relays/push";
import type { RelayPusher } from "../../../../lib/provisioning/relays/relayConnection";
import { heardLately, ONLINE_WITHIN_MS, viewCredential, wasOffline } from "../../../../lib/provisioning/relays/site";
import { createRelayCredential, createSite, deleteRelayCredential, markQuietRelays } from "../../../../lib/provisioning/relays/siteService";
import { memoryProvisioningStores } from "../../../../lib/store/memory/provisioningStores";
import { JOBS_MESSAGE, PUSH } from "../../../../lib/wire/relay";

/** The push (issue 56) against the memory stores, the clock in the test's hands, API Gateway's `@connections` a recording pusher. */
describe("the relays' push connections", () => {
  const t0 = new Date("2026-11-28T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const setUp = async () => {
    const stores = memoryProvisioningStores({ capacity: 10_000, maxBytes: 64 << 20 });
    const site = await createSite(stores, { name: "lab" }, t0);
    const other = await createSite(stores, { name: "elsewhere" }, t0);
    const a = await createRelayCredential(stores, site.id, { name: "a" }, t0);
    const b = await createRelayCredential(stores, other.id, { name: "b" }, t0);
    const connect = (connectionId: string, token: string, now = t0) =>
      connectRelay(stores, { connectionId, authorization: `Bearer ${token}`, version: "0.4.0" }, now);
    return { stores, site, other, a, b, connect };
  };
  /** A job of the site, leased unless `extra` says otherwise. */
  const relayJob = (site: string, id: string, extra: Partial<RelayJob>): RelayJob => ({
    id,
    site,
    node: "n",
    action: { kind: "power", action: "on" },
    obm: { service: "ipmi-obm-service", config: {} },
    requestedBy: "test",
    state: "leased",
    createdAt: t0.toISOString(),
    updatedAt: t0.toISOString(),
    deadline: at(120_000).toISOString(),
    attempts: 1,
    ...extra,
  });
  /** A pusher that records what it sent, answers "gone" for the ids in `gone` and fails for those in `failing`. */
  const recording = (gone: string[] = [], failing: string[] = []) => {
    const sent: [string, string][] = [];
    const closed: string[] = [];
    const pusher: RelayPusher = {
      send: async (id, message) => {
        if (failing.includes(id)) throw new Error("API Gateway is slow");
        if (gone.includes(id)) return "gone";
        sent.push([id, message]);
        return "sent";
      },
      close: async (id) => {
        if (failing.includes(id)) throw new Error("API Gateway is slow");
        closed.push(id);
      },
    };
    return { sent, closed, pusher };
  };

  it("keeps a connection under the site of the credential it presented, until API Gateway's two hours are past", async () => {
    const { stores, site, a, connect } = await setUp();
    const connection = await connect("conn-a", a.token);
    expect(connection).toEqual({
      id: "conn-a",
      site: site.id,
      relay: a.id,
      connectedAt: t0.toISOString(),
      expiresAt: at(CONNECTION_LIFE_MS).toISOString(),
    });
    expect(await stores.relayConnections.get("conn-a")).toEqual(connection);
    expect(await stores.relayConnections.idsOfSite(site.id, at(CONNECTION_LIFE_MS - 1))).toEqual(["conn-a"]);
    expect(await stores.relayConnections.idsOfSite(site.id, at(CONNECTION_LIFE_MS))).toEqual([]);
    expect(await stores.relayConnections.get("conn-a")).toBeUndefined();
  });

  it("refuses a connection without a good credential, and keeps nothing", async () => {
    const { stores, site, a, connect } = await setUp();
    await expect(connect("conn-x", `${a.id}.not-the-secret`)).rejects.toMatchObject({ kind: "unauthorized" });
    await expect(connectRelay(stores, { connectionId: "conn-y", authorization: undefined, version: undefined }, t0)).rejects.toMatchObject({
      kind: "unauthorized",
    });
    expect(await stores.relayConnections.idsOfSite(site.id, t0)).toEqual([]);
  });

  it("keeps a relay online by its pings while it polls only now and then, and lost once they stop", async () => {
    const { stores, a, connect } = await setUp();
    await connect("conn-a", a.token);
    const later = at(ONLINE_WITHIN_MS * 3);
    expect(await pingRelay(stores, "conn-a", later)).toBe(true);
    const pinged = (await stores.relayCredentials.get(a.id))!;
    expect(pinged).toMatchObject({ lastSeenAt: later.toISOString(), pushedAt: later.toISOString() });
    // Polling alone would be offline a minute after; a ping keeps it online PUSH.onlineForMs.
    const quiet = at(ONLINE_WITHIN_MS * 3 + ONLINE_WITHIN_MS * 2);
    expect(viewCredential(pinged, quiet).online).toBe(true);
    expect(await markQuietRelays(stores, quiet)).toBe(0);
    const past = at(ONLINE_WITHIN_MS * 3 + PUSH.onlineForMs);
    expect(viewCredential(pinged, past).online).toBe(false);
    expect(await markQuietRelays(stores, past)).toBe(1);
  });

  it("tells a ping on a connection it does not know, or whose credential was revoked, to connect again", async () => {
    const { stores, site, a, connect } = await setUp();
    expect(await pingRelay(stores, "never-seen", t0)).toBe(false);
    await connect("conn-a", a.token);
    await deleteRelayCredential(stores, site.id, a.id, t0);
    expect(await pingRelay(stores, "conn-a", at(1000))).toBe(false);
    expect(await stores.relayConnections.get("conn-a")).toBeUndefined();
  });

  it("closes the revoked credential's connections at API Gateway and forgets them, no other's; one it cannot close is said and kept", async () => {
    const { stores, site, a, connect } = await setUp();
    const a2 = await createRelayCredential(stores, site.id, { name: "a2" }, t0);
    await connect("conn-1", a.token);
    await connect("conn-2", a2.token);
    await connect("conn-3", a.token);
    const { closed, pusher } = recording([], ["conn-3"]);
    const failures: string[] = [];
    expect(await closeRelayConnections(stores, pusher, site.id, a.id, t0, (id, error) => failures.push(`${id}: ${error.message}`))).toBe(1);
    expect(closed).toEqual(["conn-1"]);
    expect(failures).toEqual(["conn-3: API Gateway is slow"]);
    expect((await stores.relayConnections.idsOfSite(site.id, t0)).sort()).toEqual(["conn-2", "conn-3"]);
    const broken = { relayConnections: { ...stores.relayConnections, idsOfSite: async () => Promise.reject(new Error("down")) } };
    expect(await closeRelayConnections(broken, pusher, site.id, a.id, t0, (id, error) => failures.push(`${id}: ${error.message}`))).toBe(0);
    expect(failures.at(-1)).toBe(": down");
  });

  it("forgets a closed connection; the relay stays online by it only while it holds another (a renewal)", async () => {
    const { stores, site, a, connect } = await setUp();
    await connect("old", a.token);
    await connect("new", a.token, at(1000));
    await disconnectRelay(stores, "old", at(2000));
    expect(await stores.relayConnections.idsOfSite(site.id, at(2000))).toEqual(["new"]);
    expect((await stores.relayCredentials.get(a.id))!.pushedAt).toBe(at(1000).toISOString());
    await disconnectRelay(stores, "new", at(3000));
    expect(await stores.relayConnections.idsOfSite(site.id, at(3000))).toEqual([]);
    const closed = (await stores.relayCredentials.get(a.id))!;
    expect(closed.pushedAt).toBeUndefined();
    expect(viewCredential(closed, at(1000 + ONLINE_WITHIN_MS)).online).toBe(false);
    // A close heard twice (or for a connection never kept) changes nothing.
    await expect(disconnectRelay(stores, "new", at(4000))).resolves.toBeUndefined();
  });

  it("tells the site's connected relays and no other site's, forgetting a connection found gone", async () => {
    const { stores, site, a, b, connect } = await setUp();
    await connect("a-1", a.token);
    await connect("a-2", a.token);
    await connect("b-1", b.token);
    const { sent, pusher } = recording(["a-2"]);
    expect(await tellRelays(stores, pusher, site.id, t0, () => undefined)).toBe(1);
    expect(sent).toEqual([["a-1", JOBS_MESSAGE]]);
    expect(await stores.relayConnections.idsOfSite(site.id, t0)).toEqual(["a-1"]);
  });

  it("never fails the job for a push that failed: it says which connection, and keeps it", async () => {
    const { stores, site, a, connect } = await setUp();
    await connect("a-1", a.token);
    const failures: string[] = [];
    const { pusher } = recording([], ["a-1"]);
    expect(await tellRelays(stores, pusher, site.id, t0, (id, error) => failures.push(`${id}: ${error.message}`))).toBe(0);
    expect(failures).toEqual(["a-1: API Gateway is slow"]);
    expect(await stores.relayConnections.idsOfSite(site.id, t0)).toEqual(["a-1"]);
    const broken = {
      ...stores,
      relayConnections: { ...stores.relayConnections, idsOfSite: () => Promise.reject(new Error("table away")) },
    };
    expect(await tellRelays(broken, pusher, site.id, t0, (id, error) => failures.push(`${id}: ${error.message}`))).toBe(0);
    expect(failures[1]).toBe(": table away");
  });

  it("pushes at each job made, to the job's site, once it is stored; a job refused is not pushed", async () => {
    const { stores, site } = await setUp();
    const told: string[] = [];
    const jobs = pushingJobs(stores.relayJobs, async (where) => told.push(where));
    const job = relayJob(site.id, "job-1", { state: "queued", attempts: 0 });
    await jobs.create(job);
    expect(told).toEqual([site.id]);
    await expect(jobs.create(job)).rejects.toMatchObject({ kind: "conflict" });
    expect(told).toEqual([site.id]);
    // The rest is the store's own.
    expect(await jobs.get("job-1")).toMatchObject({ id: "job-1" });
    expect((await jobs.list()).map((each) => each.id)).toEqual(["job-1"]);
    expect((await jobs.openForSite(site.id)).map((each) => each.id)).toEqual(["job-1"]);
    expect(await jobs.update("job-1", (current) => ({ ...current, attempts: 1 }))).toMatchObject({ attempts: 1 });
    expect(await jobs.delete("job-1")).toMatchObject({ id: "job-1" });
    expect(told).toEqual([site.id]);
  });

  it("says when the site's first job a relay holds comes back: not one acting, not one already back, not another site's", async () => {
    const { stores, site } = await setUp();
    const job = (id: string, extra: Partial<RelayJob>) => stores.relayJobs.create(relayJob(site.id, id, extra));
    expect(await nextLeaseEnd(stores, site.id, t0)).toBeUndefined();
    await job("queued", { state: "queued" });
    await job("acting", { lease: { id: "l1", relay: "r", until: at(10_000).toISOString() }, actingSince: t0.toISOString() });
    await job("back", { lease: { id: "l2", relay: "r", until: at(-1).toISOString() } });
    expect(await nextLeaseEnd(stores, site.id, t0)).toBeUndefined();
    await job("held-long", { lease: { id: "l3", relay: "r", until: at(50_000).toISOString() } });
    await job("held", { lease: { id: "l4", relay: "r", until: at(30_000).toISOString() } });
    expect(await nextLeaseEnd(stores, site.id, t0)).toEqual(at(30_000));
    expect(await nextLeaseEnd(stores, "another", t0)).toBeUndefined();
  });

  it("counts a relay heard lately by either way, and one seen before it was lost as offline", () => {
    const credential = { id: "c", site: "s", name: "a", secretSha256: "x", createdAt: t0.toISOString() };
    expect(heardLately(credential, t0)).toBe(false);
    expect(heardLately({ ...credential, lastSeenAt: t0.toISOString() }, at(ONLINE_WITHIN_MS - 1))).toBe(true);
    expect(heardLately({ ...credential, lastSeenAt: t0.toISOString() }, at(ONLINE_WITHIN_MS))).toBe(false);
    expect(heardLately({ ...credential, pushedAt: t0.toISOString() }, at(PUSH.onlineForMs - 1))).toBe(true);
    expect(heardLately({ ...credential, pushedAt: t0.toISOString() }, at(PUSH.onlineForMs))).toBe(false);
    const pinging = { ...credential, lastSeenAt: t0.toISOString(), pushedAt: t0.toISOString() };
    expect(wasOffline(pinging, at(ONLINE_WITHIN_MS * 2))).toBe(false);
    expect(wasOffline({ ...pinging, lostAt: t0.toISOString() }, at(1))).toBe(true);
  });
});
