import { authenticateToken, bearerToken, issueToken, MAX_TOKENS, revokeToken } from "../../../lib/auth/apiTokens";
import { readSettings } from "../../../lib/config/settings";
import { MemoryApiTokenStore } from "../../../lib/store/memory/apiTokenStore";

const NOW = new Date("2026-11-28T10:00:00.000Z");
const admin = { name: "root", grants: [{ role: "admin" as const, sites: "*" as const }] };

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
    expect(await authenticateToken(store, token, NOW)).toEqual({
      name: "root",
      token: record.id,
      grants: [{ role: "viewer", sites: ["a", "b"] }],
    });
    expect((await store.get(record.id))?.lastUsedAt).toBe(NOW.toISOString());
    await authenticateToken(store, token, new Date(NOW.getTime() + 59_000));
    expect((await store.get(record.id))?.lastUsedAt).toBe(NOW.toISOString());
    await authenticateToken(store, token, new Date(NOW.getTime() + 60_000));
    expect((await store.get(record.id))?.lastUsedAt).toBe(new Date(NOW.getTime() + 60_000).toISOString());
    expect(await authenticateToken(store, token, new Date("2026-11-29T10:00:00.000Z"))).toBeUndefined();
    expect(await authenticateToken(store, `rhdt_${"A".repeat(16)}_${"B".repeat(32)}`, NOW)).toBeUndefined();
  });

  it("keeps at most MAX_TOKENS, and revokes only what it knows", async () => {
    const store = new MemoryApiTokenStore();
    for (let i = 0; i < MAX_TOKENS; i += 1)
      await store.create({ id: `id${i}`, name: "n", owner: "o", grant: "viewer@*", createdAt: "", expiresAt: "", secretHash: "" });
    await expect(issueToken(store, admin, { name: "t", role: "viewer", expiresInDays: 1 }, NOW)).rejects.toThrow(/1000 tokens at most/);
    await expect(revokeToken(store, admin, "id1")).rejects.toThrow(/Could not find token id1/);
  });
});

describe("AUDIT_RETENTION_DAYS", () => {
  it("is 365 days unless set, and a bad value stops the start", () => {
    expect(readSettings({}).auditRetentionDays).toBe(365);
    expect(readSettings({ AUDIT_RETENTION_DAYS: " 30 " }).auditRetentionDays).toBe(30);
    for (const bad of ["0", "3654", "1.5", "x"]) expect(() => readSettings({ AUDIT_RETENTION_DAYS: bad })).toThrow(/AUDIT_RETENTION_DAYS/);
  });
});
