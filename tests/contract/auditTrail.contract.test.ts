import type { AuditRecord, AuditTrail } from "../../lib/audit/auditTrail";
import { DynamoAuditTrail } from "../../lib/store/dynamodb/auditTrail";
import { MemoryAuditTrail } from "../../lib/store/memory/auditTrail";
import { freshTable, testDocumentClient } from "../support/dynamoTables";

jest.setTimeout(120_000);

/** Issue 55: the audit trail in both stores: a day at a time, newest first, never written over. */
const adapters: [string, () => Promise<AuditTrail>][] = [
  ["memory", async () => new MemoryAuditTrail()],
  ["dynamodb", async () => new DynamoAuditTrail(testDocumentClient(), await freshTable("audit"), 365)],
];

const record = (at: string, suffix: string): AuditRecord => ({
  id: `${at}#${suffix}`,
  at,
  actor: "alice",
  verified: true,
  action: "createNode",
  method: "POST",
  path: "/api/1.1/nodes",
  status: 201,
});

describe.each(adapters)("audit trail contract: %s", (_name, make) => {
  it("answers a day newest first, before a record, a page at a time", async () => {
    const trail = await make();
    await trail.add(record("2026-11-28T10:00:00.000Z", "AAAAAAAA"));
    await trail.add(record("2026-11-28T11:00:00.000Z", "BBBBBBBB"));
    await trail.add(record("2026-11-28T12:00:00.000Z", "CCCCCCCC"));
    await trail.add(record("2026-11-27T23:59:59.999Z", "DDDDDDDD"));
    const ids = (records: AuditRecord[]) => records.map((r) => r.id.slice(-8));
    expect(ids(await trail.day("2026-11-28", { limit: 10 }))).toEqual(["CCCCCCCC", "BBBBBBBB", "AAAAAAAA"]);
    expect(ids(await trail.day("2026-11-28", { limit: 2 }))).toEqual(["CCCCCCCC", "BBBBBBBB"]);
    expect(ids(await trail.day("2026-11-28", { before: "2026-11-28T11:00:00.000Z#BBBBBBBB", limit: 2 }))).toEqual(["AAAAAAAA"]);
    expect(ids(await trail.day("2026-11-27", { limit: 10 }))).toEqual(["DDDDDDDD"]);
    expect(await trail.day("2026-11-26", { limit: 10 })).toEqual([]);
    expect((await trail.day("2026-11-28", { limit: 1 }))[0]).toEqual(record("2026-11-28T12:00:00.000Z", "CCCCCCCC"));
  });
});
