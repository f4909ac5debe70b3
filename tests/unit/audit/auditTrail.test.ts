import { type AuditRecord, readTrail } from "../../../lib/audit/auditTrail";
import { MemoryAuditTrail } from "../../../lib/store/memory/auditTrail";

const NOW = new Date("2026-11-28T12:00:00.000Z");
const record = (at: string, actor = "a"): AuditRecord => ({
  id: `${at}#AAAAAAAA`,
  at,
  actor,
  verified: true,
  action: "x",
  method: "POST",
  path: "/",
  status: 201,
});

describe("reading the audit trail", () => {
  it("refuses a since that is no ISO time and a next that is no token of its", async () => {
    const trail = new MemoryAuditTrail();
    await expect(readTrail(trail, { since: "yesterday" }, NOW)).rejects.toThrow(/since/);
    await expect(readTrail(trail, { since: "2026-13-45T00:00:00Z" }, NOW)).rejects.toThrow(/since/);
    await expect(readTrail(trail, { after: "x" }, NOW)).rejects.toThrow(/next/);
  });

  it("stops at since, reads past a full day's batch, and keeps the memory store's newest", async () => {
    const trail = new MemoryAuditTrail(3);
    for (const at of ["2026-11-20T00:00:00.000Z", "2026-11-28T01:00:00.000Z", "2026-11-28T02:00:00.000Z", "2026-11-28T03:00:00.000Z"])
      await trail.add(record(at, at.slice(11, 13)));
    expect((await readTrail(trail, { limit: 1, actor: "01" }, NOW)).records.map((r) => r.actor)).toEqual(["01"]);
    expect((await readTrail(trail, { since: "2026-11-28T02:00:00.000Z" }, NOW)).records.map((r) => r.actor)).toEqual(["03", "02"]);
    expect((await readTrail(trail, { since: "2026-11-01T00:00:00.000Z" }, NOW)).records).toHaveLength(3);
  });
});
