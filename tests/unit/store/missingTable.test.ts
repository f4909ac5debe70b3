import { answerMissingTableAs503 } from "../../../lib/store/dynamodb/unavailable";
import { MemoryApiTokenStore } from "../../../lib/store/memory/apiTokenStore";

/** A client's middleware stack as the SDK keeps it: the one added here wraps each command's handler. */
function clientWith(remake?: (table: string) => Promise<void>) {
  let wrap: ((next: (args: unknown) => Promise<unknown>) => (args: unknown) => Promise<unknown>) | undefined;
  const client = {
    middlewareStack: {
      add: (middleware: never) => {
        wrap = middleware;
      },
    },
  };
  answerMissingTableAs503(client, remake);
  return (args: unknown, outcome: () => Promise<unknown>) => wrap!(outcome)(args);
}

const missing = () =>
  Promise.reject(Object.assign(new Error("Cannot do operations on a non-existent table"), { name: "ResourceNotFoundException" }));

describe("a missing table", () => {
  it("is an outage (503, Retry-After 5), the table made again where the client may (a local engine), by the name the command gives", async () => {
    const made: string[] = [];
    const send = clientWith(async (table) => void made.push(table));
    await expect(send({ input: { TableName: "t1" } }, missing)).rejects.toMatchObject({ kind: "unavailable", retryAfterSeconds: 5 });
    await expect(send({ input: { TransactItems: [{ Put: { TableName: "t2" } }] } }, missing)).rejects.toMatchObject({
      kind: "unavailable",
    });
    await expect(send({ input: {} }, missing)).rejects.toMatchObject({ kind: "unavailable" });
    expect(made).toEqual(["t1", "t2"]);
  });

  it("is still the outage when the table cannot be made, and on AWS (no remaking) it is only the outage", async () => {
    await expect(clientWith(() => Promise.reject(new Error("no")))({ input: { TableName: "t" } }, missing)).rejects.toMatchObject({
      kind: "unavailable",
    });
    await expect(clientWith()({ input: { TableName: "t" } }, missing)).rejects.toMatchObject({ kind: "unavailable" });
  });

  it("leaves every other error, and every answer, as it is", async () => {
    const send = clientWith(async () => undefined);
    const other = Object.assign(new Error("x"), { name: "ConditionalCheckFailedException" });
    await expect(send({ input: { TableName: "t" } }, () => Promise.reject(other))).rejects.toBe(other);
    await expect(send({ input: { TableName: "t" } }, async () => "answer")).resolves.toBe("answer");
  });
});

describe("the memory store's provider sign-ins", () => {
  it("keeps the newest of each, and past its capacity drops the longest unseen", async () => {
    const store = new MemoryApiTokenStore(2);
    await store.recordSignIn({ name: "oidc:a", groups: [], at: "2026-01-01T00:00:00.000Z" });
    await store.recordSignIn({ name: "oidc:b", groups: [], at: "2026-01-01T00:00:01.000Z" });
    await store.recordSignIn({ name: "oidc:a", groups: ["g"], at: "2026-01-01T00:00:02.000Z" });
    await store.recordSignIn({ name: "oidc:c", groups: [], at: "2026-01-01T00:00:03.000Z" });
    expect(await store.lastSignIn("oidc:b")).toBeUndefined();
    expect(await store.lastSignIn("oidc:a")).toEqual({ name: "oidc:a", groups: ["g"], at: "2026-01-01T00:00:02.000Z" });
    expect(await store.lastSignIn("oidc:c")).toMatchObject({ name: "oidc:c" });
  });
});
