import { type AttemptCounter, MemoryAttemptCounter } from "../../lib/auth/attemptLimiter";
import { DynamoAttemptCounter } from "../../lib/store/dynamodb/attemptCounter";
import { freshTable, testDocumentClient } from "../support/dynamoTables";

/** Issue 35 §9: failed sign-ins are counted the same way in each store; DynamoDB's counts are shared by every container. */
const adapters: [string, () => Promise<AttemptCounter[]>][] = [
  ["memory", async () => [new MemoryAttemptCounter()]],
  [
    "dynamodb",
    async () => {
      const table = await freshTable("attempts");
      // Two containers: two clients of one table.
      return [new DynamoAttemptCounter(testDocumentClient(), table), new DynamoAttemptCounter(testDocumentClient(), table)];
    },
  ],
];

describe.each(adapters)("failed sign-in counter contract: %s", (_name, make) => {
  it("counts each key per window, from zero, and one container sees another's", async () => {
    const counters = await make();
    const [first] = counters;
    const other = counters[counters.length - 1];
    expect(await first.failures(["user#a", "source#1"], 600)).toEqual([0, 0]);
    await first.fail(["user#a", "source#1"], 600);
    await other.fail(["user#a", "source#2"], 600);
    expect(await other.failures(["user#a", "source#1", "source#2"], 600)).toEqual([2, 1, 1]);
    expect(await first.failures(["user#a"], 900)).toEqual([0]);
  });
});
