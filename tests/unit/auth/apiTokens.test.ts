import {
  authenticateToken,
  bearerToken,
  issueToken,
  MAX_TOKENS,
  noteSignIn,
  PROVIDER_SIGN_IN_DAYS,
  recentSignIn,
  revokeToken,
} from "../../../lib/auth/apiTokens";
import type { Grant } from "../../../lib/auth/roles";
import { readSettings } from "../../../lib/config/settings";
import { MemoryApiTokenStore } from "../../../lib/store/memory/apiTokenStore";

const NOW = new Date("2026-11-28T10:00:00.000Z");
const admin = { name: "root", grants: [{ role: "admin" as const, sites: "*" as const }] };
const EVERYTHING: readonly Grant[] = [{ role: "admin", sites: "*" }];
/** The owner holds what `held` says now. */
const holds = (held: readonly Grant[]) => async () => held;

describe("API tokens' rules", () => {
  it("reads a Bearer token only when it is one (a relay's credential is not)", () => {
    expect(bearerToken("Bearer rhdt_abc")).toBe("rhdt_abc");
    expect(bearerToken("bearer  rhdt_abc ")).toBe("rhdt_abc");
    expect(bearerToken("Bearer 5f0c.secret")).toBeUndefined();
    expect(bearerToken("Basic cm9vdA==")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  it("expires a token at its expiry, to the second, and records a use at most once a minute", async () => {
    const store = new MemoryApiTokenStore();
    const { token, record } = await issueToken(store, admin, { name: "t", role: "viewer@a+b", expiresInDays: 1 }, NOW);
    expect(record.expiresAt).toBe("2026-11-29T10:00:00.000Z");
    expect(await authenticateToken(store, token, NOW, holds(EVERYTHING))).toEqual({
      name: "root",
      token: record.id,
      grants: [{ role: "viewer", sites: ["a", "b"] }],
    });
    expect((await store.get(record.id))?.lastUsedAt).toBe(NOW.toISOString());
    await authenticateToken(store, token, new Date(NOW.getTime() + 59_000), holds(EVERYTHING));
    expect((await store.get(record.id))?.lastUsedAt).toBe(NOW.toISOString());
    await authenticateToken(store, token, new Date(NOW.getTime() + 60_000), holds(EVERYTHING));
    expect((await store.get(record.id))?.lastUsedAt).toBe(new Date(NOW.getTime() + 60_000).toISOString());
    expect(await authenticateToken(store, token, new Date("2026-11-29T10:00:00.000Z"), holds(EVERYTHING))).toBeUndefined();
    expect(await authenticateToken(store, `rhdt_${"A".repeat(16)}_${"B".repeat(32)}`, NOW, holds(EVERYTHING))).toBeUndefined();
  });

  it("keeps at most MAX_TOKENS, and revokes only what it knows", async () => {
    const store = new MemoryApiTokenStore();
    for (let i = 0; i < MAX_TOKENS; i += 1)
      await store.create({ id: `id${i}`, name: "n", owner: "o", grant: "viewer@*", createdAt: "", expiresAt: "", secretHash: "" });
    await expect(issueToken(store, admin, { name: "t", role: "viewer", expiresInDays: 1 }, NOW)).rejects.toThrow(/1000 tokens at most/);
    await expect(revokeToken(store, admin, "id1")).rejects.toThrow(/Could not find token id1/);
  });
});

describe("a token's grant at each use", () => {
  it("is narrowed to what its owner holds now: a demoted owner's token is demoted, a removed owner's ends and records no use", async () => {
    const store = new MemoryApiTokenStore();
    const alice = { name: "alice", grants: [{ role: "admin" as const, sites: "*" as const }] };
    const { token, record } = await issueToken(store, alice, { name: "t", role: "admin", expiresInDays: 30 }, NOW);
    const asked: string[] = [];
    const demoted = await authenticateToken(store, token, NOW, async (owner) => {
      asked.push(owner);
      return [{ role: "viewer", sites: ["A"] }];
    });
    expect(asked).toEqual(["alice"]);
    expect(demoted).toEqual({ name: "alice", token: record.id, grants: [{ role: "viewer", sites: ["A"] }] });
    const later = new Date(NOW.getTime() + 3_600_000);
    expect(await authenticateToken(store, token, later, holds([]))).toBeUndefined();
    expect((await store.get(record.id))?.lastUsedAt).toBe(NOW.toISOString());
    // A narrower token keeps its own bound under a wider owner.
    const narrow = await issueToken(store, alice, { name: "n", role: "operator@A+B", expiresInDays: 30 }, NOW);
    expect((await authenticateToken(store, narrow.token, NOW, holds([{ role: "admin", sites: ["B", "C"] }])))?.grants).toEqual([
      { role: "operator", sites: ["B"] },
    ]);
  });

  it("reads a provider caller's groups from its last sign-in, within PROVIDER_SIGN_IN_DAYS, written once a minute unless they change", async () => {
    const store = new MemoryApiTokenStore();
    const writes: string[] = [];
    const record = store.recordSignIn.bind(store);
    store.recordSignIn = async (signIn) => {
      writes.push(`${signIn.at} ${signIn.groups.join("+")}`);
      return record(signIn);
    };
    const carol = { name: "oidc:carol@example.com", grants: [], groups: ["ops", "auditors"] };
    await noteSignIn(store, carol, NOW);
    await noteSignIn(store, carol, new Date(NOW.getTime() + 30_000));
    await noteSignIn(store, { ...carol, groups: ["auditors"] }, new Date(NOW.getTime() + 40_000));
    expect(writes).toEqual(["2026-11-28T10:00:00.000Z auditors+ops", "2026-11-28T10:00:40.000Z auditors"]);
    const seen = new Date(NOW.getTime() + 40_000).getTime();
    expect(await recentSignIn(store, carol.name, new Date(seen + PROVIDER_SIGN_IN_DAYS * 86_400_000 - 1))).toEqual(["auditors"]);
    expect(await recentSignIn(store, carol.name, new Date(seen + PROVIDER_SIGN_IN_DAYS * 86_400_000))).toBeUndefined();
    expect(await recentSignIn(store, "client:carol@example.com", NOW)).toBeUndefined();
  });
});

describe("AUDIT_RETENTION_DAYS", () => {
  it("is 365 days unless set, and a bad value stops the start", () => {
    expect(readSettings({}).auditRetentionDays).toBe(365);
    expect(readSettings({ AUDIT_RETENTION_DAYS: " 30 " }).auditRetentionDays).toBe(30);
    for (const bad of ["0", "3654", "1.5", "x"]) expect(() => readSettings({ AUDIT_RETENTION_DAYS: bad })).toThrow(/AUDIT_RETENTION_DAYS/);
  });
});
