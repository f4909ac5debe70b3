import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import type { EventDraft, ServiceEvent } from "../../../../lib/provisioning/events/event";
import { type DeliveryDeps, type DeliveryMessage, deliver, fanOut, testDelivery } from "../../../../lib/provisioning/hooks/deliveryService";
import {
  checkEventNames,
  checkFilters,
  checkHookUrl,
  type Hook,
  secretOf,
  signingSecrets,
  viewHook,
  wants,
} from "../../../../lib/provisioning/hooks/hook";
import {
  createHook,
  deleteHook,
  getHook,
  hookDeliveries,
  listHooks,
  rotateHookSecret,
  updateHook,
} from "../../../../lib/provisioning/hooks/hookService";
import { DEFAULT_RETRY_SECONDS, retryDelaySeconds, shouldDisable } from "../../../../lib/provisioning/hooks/retrySchedule";
import { signedHeaders } from "../../../../lib/provisioning/hooks/signature";
import { MemoryDeliveryLog } from "../../../../lib/store/memory/deliveryLog";

/** The local stage's hook targets (HOOK_PRIVATE_TARGETS=on, HOOK_HTTP=on): these tests are about other rules. */
const OPEN = { privateTargets: true, http: true };

import { MemoryRecordStore } from "../../../../lib/store/memory/recordStore";

const KEY = "unit-test-hook-signing-key-0123456789";
const limits = { capacity: 1000, maxBytes: 1 << 24 };

const hook = (fields: Partial<Hook> = {}): Hook => ({
  id: "65f0c0ffee0123456789abcd",
  url: "https://receiver.example/hook",
  filters: [],
  events: [],
  secretGeneration: 1,
  createdAt: "2026-11-24T00:00:00.000Z",
  updatedAt: "2026-11-24T00:00:00.000Z",
  ...fields,
});

const draft = (fields: Partial<EventDraft> = {}): EventDraft => ({
  type: "graph",
  action: "finished",
  severity: "information",
  typeId: "5f0c0ffee0123456789abcd0",
  nodeId: "65f0c0ffee0123456789abcd",
  data: { status: "succeeded" },
  ...fields,
});

const event = (fields: Partial<ServiceEvent> = {}): ServiceEvent => ({
  ...draft(),
  id: "8a1b2c3d-0000-4000-8000-000000000001",
  version: "1.0",
  createdAt: "2026-11-24T00:00:00.000Z",
  subject: "65f0c0ffee0123456789abcd",
  sequence: 1,
  ...fields,
});

describe("hooks: which events a hook wants (RackHD's filters and event names)", () => {
  it("takes every event with no filters and no names (a RackHD 2.0 hook), the audit trail's apart", () => {
    fc.assert(
      fc.property(
        fc.string().filter((type) => type !== "audit"),
        fc.string(),
        (type, action) => wants(hook(), draft({ type, action })),
      ),
    );
  });

  it("sends the audit trail's events only to a hook that names them (issue 55: `*` is not fed its own changes)", () => {
    const audit = draft({ type: "audit", action: "recorded" });
    expect(wants(hook(), audit)).toBe(false);
    expect(wants(hook({ events: ["*"] }), audit)).toBe(false);
    expect(wants(hook({ events: ["node.*"] }), audit)).toBe(false);
    expect(wants(hook({ events: ["audit.*"] }), audit)).toBe(true);
    expect(wants(hook({ events: ["*", "audit.recorded"] }), audit)).toBe(true);
    expect(wants(hook({ events: ["audit.recorded"], filters: [{ nodeId: "^n1$" }] }), { ...audit, nodeId: "n2" })).toBe(false);
  });

  it("ORs filter objects and ANDs the keys within one, each a regular expression on the envelope's top-level value", () => {
    const filtered = hook({ filters: [{ type: "^graph$", action: "fin" }, { nodeId: "^xx" }] });
    expect(wants(filtered, draft())).toBe(true);
    expect(wants(filtered, draft({ action: "started" }))).toBe(false);
    expect(wants(filtered, draft({ type: "node", action: "added", nodeId: "xxabc" }))).toBe(true);
    // A key the event lacks fails its filter (RackHD: `_.has`).
    expect(wants(hook({ filters: [{ missing: ".*" }] }), draft())).toBe(false);
  });

  it("chooses by event name: exact, a prefix with .*, or *", () => {
    expect(wants(hook({ events: ["graph.finished"] }), draft())).toBe(true);
    expect(wants(hook({ events: ["graph.*"] }), draft({ action: "progress.updated" }))).toBe(true);
    expect(wants(hook({ events: ["node.*"] }), draft())).toBe(false);
    expect(wants(hook({ events: ["*"] }), draft())).toBe(true);
    expect(wants(hook({ disabledAt: "2026-11-25T00:00:00.000Z" }), draft())).toBe(false);
  });

  it("refuses a bad url, filter or name with a 400 (never a failed delivery later)", () => {
    for (const url of ["ftp://x.example/", "not a url", "https://user:pw@x.example/", 42, `https://x.example/${"a".repeat(2100)}`])
      expect(() => checkHookUrl(url, OPEN)).toThrow(expect.objectContaining({ kind: "bad-request" }));
    expect(checkHookUrl("http://127.0.0.1:9000/in", OPEN)).toBe("http://127.0.0.1:9000/in");
    expect(() => checkFilters([{ type: "(" }])).toThrow(/not a regular expression/);
    expect(() => checkFilters({})).toThrow(/array/);
    expect(() => checkFilters([{ a: 1 }])).toThrow(/regular expression of at most/);
    expect(() => checkEventNames(["graph finished"])).toThrow(/names no event/);
    // Issue 35 §14: a name, a prefix or * that names no event the service sends is refused.
    for (const name of ["nope", "node.nope", "NODE.ADDED", "graph.finish", "graph.finished.*", "nope.*"])
      expect(() => checkEventNames([name])).toThrow(
        expect.objectContaining({ kind: "bad-request", message: expect.stringContaining(name) }),
      );
    expect(checkEventNames(["*", "node.*", "node.sku.*", "graph.finished", "hook.test", "install.*"])).toHaveLength(6);
    expect(checkEventNames(undefined)).toEqual([]);
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          checkFilters(value);
          checkEventNames(value);
        } catch (error) {
          return (error as { kind?: string }).kind === "bad-request";
        }
        return true;
      }),
    );
  });
});

describe("hooks: signing (Standard Webhooks)", () => {
  it("signs so that the standardwebhooks package (a receiver's) verifies, under each secret of a rotation", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 2 }), fc.integer({ min: 1, max: 50 }), (body, generation) => {
        const secrets = [secretOf(KEY, "h", generation), secretOf(KEY, "h", generation - 1)];
        const now = new Date();
        const headers = signedHeaders("msg-1", now, body, secrets);
        // The package's verify also parses the body as JSON, as a receiver of ours would.
        for (const secret of secrets) new Webhook(secret).verify(body, headers);
        return headers["webhook-signature"].split(" ").length === 2;
      }),
    );
    const headers = signedHeaders("msg-1", new Date(), "{}", [secretOf(KEY, "h", 1)]);
    expect(() => new Webhook(secretOf(KEY, "other", 1)).verify("{}", headers)).toThrow();
    expect(() => new Webhook(secretOf(KEY, "h", 1)).verify("{ }", headers)).toThrow();
  });

  it("derives a different secret per hook, generation and key, and sends the previous one only during its day", () => {
    expect(secretOf(KEY, "a", 1)).not.toBe(secretOf(KEY, "b", 1));
    expect(secretOf(KEY, "a", 1)).not.toBe(secretOf(KEY, "a", 2));
    expect(secretOf(KEY, "a", 1)).not.toBe(secretOf(`${KEY}x`, "a", 1));
    const now = new Date("2026-11-24T12:00:00.000Z");
    expect(signingSecrets(KEY, hook({ secretGeneration: 2, previousSecretUntil: "2026-11-25T00:00:00.000Z" }), now)).toHaveLength(2);
    expect(signingSecrets(KEY, hook({ secretGeneration: 2, previousSecretUntil: "2026-11-24T00:00:00.000Z" }), now)).toHaveLength(1);
    expect(viewHook(hook({ secretGeneration: 7 }), now)).not.toHaveProperty("secretGeneration");
  });
});

describe("hooks: the retry schedule", () => {
  it("waits longer each time over about a day, then gives up; disables a hook after a day of failures", () => {
    expect(DEFAULT_RETRY_SECONDS.every((wait, i) => i === 0 || wait >= DEFAULT_RETRY_SECONDS[i - 1])).toBe(true);
    const total = DEFAULT_RETRY_SECONDS.reduce((sum, wait) => sum + wait, 0);
    expect(total / 3600).toBeGreaterThan(20);
    expect(total / 3600).toBeLessThan(30);
    expect(retryDelaySeconds(DEFAULT_RETRY_SECONDS, 1)).toBe(10);
    expect(retryDelaySeconds(DEFAULT_RETRY_SECONDS, DEFAULT_RETRY_SECONDS.length + 1)).toBeUndefined();
    expect(retryDelaySeconds(DEFAULT_RETRY_SECONDS, 0)).toBeUndefined();
    const now = new Date("2026-11-25T00:00:00.000Z");
    expect(shouldDisable("2026-11-24T00:00:00.000Z", now)).toBe(true);
    expect(shouldDisable("2026-11-24T00:00:01.000Z", now)).toBe(false);
    expect(shouldDisable(undefined, now)).toBe(false);
  });
});

/** Delivery with a fake receiver and queue, at a clock the test moves. */
function harness(answers: (number | string)[]) {
  const hooks = new MemoryRecordStore<Hook>(limits, "hook");
  const deliveries = new MemoryDeliveryLog();
  const queued: { message: DeliveryMessage; delay: number }[] = [];
  const posted: { url: string; headers: Record<string, string>; body: string }[] = [];
  // Today: the receiver's library refuses a timestamp more than 5 minutes from its clock.
  let clock = new Date(Math.floor(Date.now() / 1000) * 1000);
  const start = clock.toISOString();
  const deps: DeliveryDeps = {
    stores: { hooks, deliveries },
    queue: { send: async (messages, delay) => void queued.push(...messages.map((message) => ({ message, delay }))) },
    poster: {
      post: async (url, headers, body) => {
        posted.push({ url, headers, body });
        const answer = answers.shift() ?? 200;
        return typeof answer === "number" ? { status: answer } : { error: answer };
      },
    },
    signingKey: KEY,
    retrySeconds: [1, 2, 3],
    now: () => clock,
  };
  return { deps, hooks, deliveries, queued, posted, start, tick: (ms: number) => (clock = new Date(clock.getTime() + ms)) };
}

describe("hooks: delivery", () => {
  it("queues each event for each hook that wants it, once per pair", async () => {
    const { deps, hooks, queued } = harness([]);
    await hooks.create(hook({ id: "a" }));
    await hooks.create(hook({ id: "b", url: "https://b.example/", events: ["node.*"] }));
    expect(await fanOut(deps, [event(), event({ id: "e2", type: "node", action: "added" })])).toBe(3);
    expect(queued.map(({ message }) => `${message.hookId}:${message.event.id}:${message.attempt}`)).toEqual([
      "a:8a1b2c3d-0000-4000-8000-000000000001:1",
      "a:e2:1",
      "b:e2:1",
    ]);
    expect(await fanOut(deps, [])).toBe(0);
  });

  it("POSTs the envelope signed, records the attempt, and on failure queues the next after the schedule's wait", async () => {
    const { deps, hooks, deliveries, queued, posted, start } = harness([503, "ECONNREFUSED", 200]);
    await hooks.create(hook());
    const message = { hookId: hook().id, event: event(), attempt: 1 };
    const first = await deliver(deps, message);
    expect(first).toMatchObject({ ok: false, status: 503, attempt: 1, retryAt: new Date(Date.parse(start) + 1000).toISOString() });
    expect(queued).toEqual([{ message: { ...message, attempt: 2 }, delay: 1 }]);
    expect(JSON.parse(posted[0].body)).toMatchObject({ id: event().id, type: "graph", action: "finished", version: "1.0" });
    new Webhook(secretOf(KEY, hook().id, 1)).verify(posted[0].body, posted[0].headers);
    expect((await hooks.get(hook().id))!.failingSince).toBe(start);

    expect(await deliver(deps, queued[0].message)).toMatchObject({ ok: false, error: "ECONNREFUSED", attempt: 2 });
    const third = await deliver(deps, { ...message, attempt: 3 });
    expect(third).toMatchObject({ ok: true, status: 200 });
    expect(third).not.toHaveProperty("retryAt");
    // A success clears the failing state; the attempts are the hook's recent deliveries, newest first.
    expect((await hooks.get(hook().id))!.failingSince).toBeUndefined();
    expect((await deliveries.recent(hook().id, 10)).map((delivery) => delivery.attempt)).toEqual([3, 2, 1]);
  });

  it("gives up after the schedule's last wait, drops messages of a deleted hook, and disables a hook failing for a day", async () => {
    const { deps, hooks, queued, tick, start } = harness([500, 500, 500]);
    await hooks.create(hook());
    await deliver(deps, { hookId: hook().id, event: event(), attempt: 4 });
    expect(queued).toEqual([]);
    expect(await deliver(deps, { hookId: "gone", event: event(), attempt: 1 })).toBeUndefined();
    tick(24 * 3600 * 1000);
    const last = await deliver(deps, { hookId: hook().id, event: event(), attempt: 1 });
    expect(last).not.toHaveProperty("retryAt");
    const disabled = (await hooks.get(hook().id))!;
    expect(disabled.disabledAt).toBe(new Date(Date.parse(start) + 24 * 3600 * 1000).toISOString());
    expect(disabled.disabledReason).toBe(`every delivery failed since ${start}`);
    expect(await deliver(deps, { hookId: hook().id, event: event(), attempt: 1 })).toBeUndefined();
  });

  it("sends a test delivery once, recorded, and queues nothing", async () => {
    const { deps, hooks, queued, posted } = harness([204]);
    await hooks.create(hook());
    const delivery = await testDelivery(deps, hook());
    expect(delivery).toMatchObject({ event: "hook.test", ok: true, status: 204, attempt: 1 });
    expect(queued).toEqual([]);
    expect(JSON.parse(posted[0].body)).toMatchObject({ type: "hook", action: "test", sequence: 0 });
  });
});

describe("hooks: the service (RackHD 2.0's rules)", () => {
  const stores = () => ({ hooks: new MemoryRecordStore<Hook>(limits, "hook"), deliveries: new MemoryDeliveryLog() });
  const now = new Date("2026-11-24T00:00:00.000Z");

  it("answers the secret at creation only, 409 for a url registered, and re-enables a disabled hook on request", async () => {
    const s = stores();
    const made = await createHook(s, { url: "https://a.example/", name: "a", events: ["graph.*"] }, now, KEY, OPEN);
    expect(made.secret).toBe(secretOf(KEY, made.id, 1));
    await expect(createHook(s, { url: "https://a.example/" }, now, KEY, OPEN)).rejects.toMatchObject({ kind: "conflict" });
    await s.hooks.update(made.id, (current) => ({ ...current, disabledAt: "x", failingSince: "y", disabledReason: "z" }));
    const enabled = await updateHook(s, made.id, { enabled: true, name: "b" }, now, OPEN);
    expect(enabled).not.toHaveProperty("disabledAt");
    expect(enabled.name).toBe("b");
    await expect(updateHook(s, made.id, { enabled: false }, now, OPEN)).rejects.toMatchObject({ kind: "bad-request" });
    const other = await createHook(s, { url: "https://b.example/" }, now, KEY, OPEN);
    await expect(updateHook(s, other.id, { url: "https://a.example/" }, now, OPEN)).rejects.toMatchObject({ kind: "conflict" });
  });

  it("rotates: a new secret, the previous signing for a day; deletes; 404 for an unknown hook", async () => {
    const s = stores();
    const made = await createHook(s, { url: "https://a.example/" }, now, KEY, OPEN);
    const rotated = await rotateHookSecret(s, made.id, now, KEY);
    expect(rotated.secret).toBe(secretOf(KEY, made.id, 2));
    expect(rotated.secretRotating).toBe(true);
    expect(await hookDeliveries(s, made.id)).toEqual([]);
    await deleteHook(s, made.id);
    for (const call of [deleteHook(s, made.id), rotateHookSecret(s, made.id, now, KEY), hookDeliveries(s, "x".repeat(2000))])
      await expect(call).rejects.toMatchObject({ kind: "not-found" });
  });

  it("lists and reads hooks without their secrets, and changes each field alone, the rest kept", async () => {
    const s = stores();
    const made = await createHook(
      s,
      { url: "https://a.example/", name: "a", filters: [{ type: "^graph$" }], events: ["graph.*"] },
      now,
      KEY,
      OPEN,
    );
    expect(made).toMatchObject({
      url: "https://a.example/",
      name: "a",
      filters: [{ type: "^graph$" }],
      events: ["graph.*"],
      secretRotating: false,
    });
    expect(made.createdAt).toBe(now.toISOString());
    const later = new Date(now.getTime() + 1000);
    expect(await listHooks(s, now)).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    expect(await getHook(s, made.id, now)).not.toHaveProperty("secretGeneration");
    const renamed = await updateHook(s, made.id, { name: "b" }, later, OPEN);
    expect(renamed).toMatchObject({
      name: "b",
      url: "https://a.example/",
      filters: [{ type: "^graph$" }],
      events: ["graph.*"],
      updatedAt: later.toISOString(),
    });
    expect(await updateHook(s, made.id, { url: "https://c.example/" }, later, OPEN)).toMatchObject({
      url: "https://c.example/",
      name: "b",
    });
    expect(await updateHook(s, made.id, { filters: [] }, later, OPEN)).toMatchObject({ filters: [], events: ["graph.*"] });
    expect(await updateHook(s, made.id, { events: [] }, later, OPEN)).toMatchObject({ events: [], url: "https://c.example/" });
    // A url it already has is no conflict with itself.
    expect(await updateHook(s, made.id, { url: "https://c.example/" }, later, OPEN)).toMatchObject({ url: "https://c.example/" });
    for (const body of [{ url: "ftp://x/" }, { name: 7 }, { name: "x".repeat(201) }, { filters: [{ a: "(" }] }, { events: ["a b"] }]) {
      await expect(updateHook(s, made.id, body, later, OPEN)).rejects.toMatchObject({ kind: "bad-request" });
    }
    await expect(createHook(s, { url: "https://d.example/", name: "x".repeat(201) }, now, KEY, OPEN)).rejects.toMatchObject({
      kind: "bad-request",
    });
    expect(await createHook(s, { url: "https://d.example/", name: "x".repeat(200) }, now, KEY, OPEN)).toMatchObject({
      name: "x".repeat(200),
    });
    await expect(getHook(s, "65f0c0ffee0123456789abcd", now)).rejects.toMatchObject({
      kind: "not-found",
      message: "Could not find hook 65f0c0ffee0123456789abcd",
    });
    await expect(updateHook(s, "nope", { name: "x" }, now, OPEN)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("answers a hook's recent deliveries, newest first, a page at most", async () => {
    const s = stores();
    const made = await createHook(s, { url: "https://a.example/" }, now, KEY, OPEN);
    for (let attempt = 1; attempt <= 3; attempt++)
      await s.deliveries.record({
        hookId: made.id,
        eventId: "e",
        event: "node.added",
        attempt,
        at: now.toISOString(),
        ok: false,
        durationMs: 1,
      });
    expect((await hookDeliveries(s, made.id)).map((delivery) => delivery.attempt)).toEqual([3, 2, 1]);
    expect(await hookDeliveries(s, made.id, 2)).toHaveLength(2);
  });
});
