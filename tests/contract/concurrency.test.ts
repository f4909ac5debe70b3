import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { DynamoTaskStore } from "../../lib/store/dynamodb/taskStore";
import { freshTable, testDocumentClient, testEndpoint } from "../support/dynamoTables";

const run = promisify(execFile);
const WRITERS = 4;
const PER_WRITER = 50;
jest.setTimeout(120_000);

describe("DynamoDB task store under many writers", () => {
  it(`gives ${WRITERS * PER_WRITER} parallel creates from ${WRITERS} processes distinct ids (last + 1) and loses none`, async () => {
    const table = await freshTable("concurrency");
    const script = join(__dirname, "../support/createTasksProcess.ts");
    const started = Date.now();
    const outputs = await Promise.all(
      Array.from({ length: WRITERS }, (_, writer) =>
        run(process.execPath, ["--require", "tsx/cjs", script, testEndpoint(), table, String(writer), String(PER_WRITER)], {
          cwd: join(__dirname, "../.."),
        }),
      ),
    );
    const elapsedMs = Date.now() - started;
    const ids = outputs.flatMap(({ stdout }) => JSON.parse(stdout) as number[]);
    const stored = await new DynamoTaskStore(testDocumentClient(), table).list();
    const distinct = new Set(ids).size;
    const lost = ids.filter((id) => !stored.some((task) => task.id === id)).length;
    // The figures for the record (see the README): writers, requests, distinct ids, lost writes.
    console.log(
      JSON.stringify({ writers: WRITERS, requests: ids.length, distinctIds: distinct, stored: stored.length, lostWrites: lost, elapsedMs }),
    );
    expect(ids).toHaveLength(WRITERS * PER_WRITER);
    expect(distinct).toBe(WRITERS * PER_WRITER);
    expect(stored).toHaveLength(WRITERS * PER_WRITER);
    expect(lost).toBe(0);
    // last + 1 from an empty list: exactly 1..200.
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: WRITERS * PER_WRITER }, (_, i) => i + 1));
  });
});
