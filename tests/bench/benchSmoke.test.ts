import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROUTES } from "../../lib/http/routes";

const run = promisify(execFile);
jest.setTimeout(300_000);

/**
 * Keeps `npm run bench` working: a smoke run (tiny sizes and times) of every section, written to a
 * temporary folder. It checks that each section produced figures, never what they are.
 */
describe("npm run bench --smoke", () => {
  const out = mkdtempSync(join(tmpdir(), "bench-smoke-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("measures every section and writes results.json and BENCHMARKS.md", async () => {
    const root = join(__dirname, "../..");
    await run(process.execPath, ["--require", "tsx/cjs", join(root, "bench/run.ts"), "--smoke", "--out", out], {
      cwd: root,
      env: process.env,
      maxBuffer: 16 << 20,
    });
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    expect(results.smoke).toBe(true);
    expect(results.node).toBe(process.version);
    const names = results.warm.map((figure: { name: string }) => figure.name);
    expect(names).toEqual(
      expect.arrayContaining(["bare baseline", "GET /tasks/{id}", "POST /nodes/{id}/workflows", "GET /profiles?macs="]),
    );
    for (const figure of results.warm) expect(figure.opsPerSec).toBeGreaterThan(0);
    expect(results.warm.length).toBe(2 + ROUTES.length + 1); // baselines, every endpoint, the catch-all
    expect(results.growth.map((row: { operation: string }) => row.operation)).toEqual(
      expect.arrayContaining(["task GET /tasks/{id}", "task list GET /tasks?limit=100", "node GET /nodes/{mac}"]),
    );
    expect(results.cold).toHaveLength(2 + ROUTES.length + 1);
    for (const cold of results.cold) expect(cold.bundleBytes).toBeGreaterThan(0);
    expect(results.memory).toHaveLength(2);
    expect(results.http.map((figure: { requestsPerSec: number }) => figure.requestsPerSec).every((value: number) => value > 0)).toBe(true);
    expect(results.dynamodb.length).toBeGreaterThanOrEqual(6);
    // Counted, not timed: a single-item read or write is one DynamoDB call.
    const capacity = new Map(results.capacity.map((figure: { name: string; calls: object }) => [figure.name, figure.calls]));
    expect(capacity.size).toBe(2 + ROUTES.length + 1 - 2);
    expect(capacity.get("GET /tasks/{id}")).toEqual({ GetItem: 1 });
    expect(capacity.get("GET /nodes/{id}")).toEqual({ GetItem: 1 });
    // A change writes its record and its audit record (issue 55).
    expect(capacity.get("PATCH /nodes/{id}")).toEqual({ GetItem: 1, PutItem: 2 });
    expect(capacity.get("GET /obms/library")).toEqual({});
    const report = readFileSync(join(out, "BENCHMARKS.md"), "utf8");
    expect(report).toContain("## Warm invocations");
    expect(report).toContain("## Cost per request (DynamoDB mode)");
  });
});
