import type { ApiToken, ApiTokenStore } from "../../lib/auth/apiTokens";
import { DynamoApiTokenStore } from "../../lib/store/dynamodb/apiTokenStore";
import { MemoryApiTokenStore } from "../../lib/store/memory/apiTokenStore";
import { freshTable, testDocumentClient } from "../support/dynamoTables";

jest.setTimeout(120_000);

/** Issue 55: API tokens kept the same way in each store; DynamoDB's are every container's. */
const adapters: [string, () => Promise<ApiTokenStore[]>][] = [
  ["memory", async () => [new MemoryApiTokenStore()]],
  [
    "dynamodb",
    async () => {
      const table = await freshTable("tokens");
      return [new DynamoApiTokenStore(testDocumentClient(), table), new DynamoApiTokenStore(testDocumentClient(), table)];
    },
  ],
];

const token = (id: string, owner = "alice"): ApiToken => ({
  id,
  name: `t-${id}`,
  owner,
  grant: "operator@rack-1",
  createdAt: "2026-11-28T10:00:00.000Z",
  expiresAt: "2027-02-26T10:00:00.000Z",
  secretHash: "x".repeat(43),
});

describe.each(adapters)("API token store contract: %s", (_name, make) => {
  it("keeps, lists, records a use, and revokes; one container sees another's", async () => {
    const stores = await make();
    const [one, other] = [stores[0], stores.at(-1)!];
    await one.create(token("AAAAAAAAAAAAAAAA"));
    await one.create(token("BBBBBBBBBBBBBBBB", "bob"));
    expect(await other.get("AAAAAAAAAAAAAAAA")).toEqual(token("AAAAAAAAAAAAAAAA"));
    expect(await other.get("CCCCCCCCCCCCCCCC")).toBeUndefined();
    expect((await other.list()).map((kept) => kept.id).sort()).toEqual(["AAAAAAAAAAAAAAAA", "BBBBBBBBBBBBBBBB"]);
    await other.update("AAAAAAAAAAAAAAAA", "2026-11-28T11:00:00.000Z");
    expect((await one.get("AAAAAAAAAAAAAAAA"))?.lastUsedAt).toBe("2026-11-28T11:00:00.000Z");
    expect(await one.delete("AAAAAAAAAAAAAAAA")).toBe(true);
    expect(await other.delete("AAAAAAAAAAAAAAAA")).toBe(false);
    // A use recorded after its revocation brings nothing back.
    await other.update("AAAAAAAAAAAAAAAA", "2026-11-28T12:00:00.000Z");
    expect(await one.get("AAAAAAAAAAAAAAAA")).toBeUndefined();
    expect((await one.list()).map((kept) => kept.id)).toEqual(["BBBBBBBBBBBBBBBB"]);
  });
});

describe.each(adapters)("provider sign-in contract: %s", (_name, make) => {
  it("keeps each provider caller's newest sign-in, seen from every container", async () => {
    const stores = await make();
    const [one, other] = [stores[0], stores.at(-1)!];
    expect(await other.lastSignIn("oidc:carol@example.com")).toBeUndefined();
    await one.recordSignIn({ name: "oidc:carol@example.com", groups: ["auditors", "ops"], at: "2026-11-28T10:00:00.000Z" });
    await one.recordSignIn({ name: "client:automation", groups: [], at: "2026-11-28T10:00:00.000Z" });
    await other.recordSignIn({ name: "oidc:carol@example.com", groups: ["auditors"], at: "2026-11-28T11:00:00.000Z" });
    expect(await one.lastSignIn("oidc:carol@example.com")).toEqual({
      name: "oidc:carol@example.com",
      groups: ["auditors"],
      at: "2026-11-28T11:00:00.000Z",
    });
    expect(await other.lastSignIn("client:automation")).toEqual({ name: "client:automation", groups: [], at: "2026-11-28T10:00:00.000Z" });
    // Not a token: the tokens' list does not hold it.
    expect(await one.list()).toEqual([]);
  });
});
