import { reportLines, routeOf, runSwarm, storeCost } from "../../scripts/swarm";
import { type OfflineServer, startOffline } from "../support/offlineServer";

jest.setTimeout(300_000);

/**
 * Issue 28's swarm, small, against the real `serverless offline` (and, in the e2e-dynamodb tier,
 * the DynamoDB store): each machine discovered, installed or made to fail on purpose, no answer
 * >= 500, every failure ending with its reason.
 */
describe("npm run swarm", () => {
  let server: OfflineServer;
  beforeAll(async () => {
    // Request lines on: on the DynamoDB store they carry each request's calls and units, which the swarm sums.
    // In process on either store, as the fuzz: its machines boot at once, and in worker threads each
    // request in flight starts a worker of its own for its function (a cold start measured, not our
    // code: 106 s against 16 on memory); the other e2e-dynamodb suites show that functions share
    // nothing but the store.
    server = await startOffline({ DEMO_NODES: "off", LOG_REQUESTS: "on", OFFLINE_IN_PROCESS: "true" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("plays 20 machines through discovery and install, 2 made to fail, with 0 answers >= 500", async () => {
    const report = await runSwarm({
      machines: 20,
      rampSeconds: 2,
      fail: 0.1,
      api: server.baseUrl,
      concurrency: 8,
      serverLog: server.output,
    });
    process.stdout.write(`${reportLines(report).join("\n")}\n`);
    expect(report.errors).toEqual([]);
    expect(report).toMatchObject({ machines: 20, installed: 18, failed: 2, failedOnPurpose: 2, answers5xx: 0 });
    // A machine made to fail never calls back: its install task times out after 3 s, before or after its
    // installer fetched the kickstart, or before it booted at all (a slow store can take that long), and says which.
    const late = ["no-callback", "no-install-script", "never-booted"];
    expect(Object.keys(report.failureReasons).every((reason) => late.includes(reason))).toBe(true);
    // Every machine fetched its profile twice (discovery, install); every installed one its kickstart and called back.
    const count = (route: string) => report.routes.find((r) => r.route === route)?.count ?? 0;
    expect(count("GET /api/{version}/profiles?macs")).toBe(40);
    expect(count("GET /api/{version}/templates/centos-ks?nodeId&token")).toBeGreaterThanOrEqual(18);
    expect(count("POST /api/{version}/notification?nodeId&token")).toBe(18);
    // On the DynamoDB store, what the fleet cost the table, from the service's own request lines.
    if (server.env.STORE === "dynamodb") {
      expect(report.dynamodb!.perInstall.calls).toBeGreaterThan(50);
      expect(report.dynamodb!.perInstall.writeUnits).toBeGreaterThan(10);
      // The boot path's routes are among those measured per request.
      expect(report.dynamodb!.perRequest.map((r) => r.route)).toContain("GET /api/{version}/profiles");
    } else expect(report.dynamodb).toBeUndefined();
  });

  it("sums the DynamoDB calls and units of the service's request lines", () => {
    const log = [
      'offline: {"msg":"request","route":"GET /a","dynamodb":{"calls":3,"readUnits":1.5,"writeUnits":2}}',
      "not json {",
      '{"msg":"request","route":"GET /a","dynamodb":{"calls":1,"readUnits":0.5,"writeUnits":0}}',
      '{"msg":"request","route":"POST /b","dynamodb":{"calls":1,"readUnits":0,"writeUnits":1}}',
      '{"msg":"request"}',
    ].join("\n");
    expect(storeCost(log)).toEqual({
      calls: 5,
      readUnits: 2,
      writeUnits: 3,
      byRoute: {
        "GET /a": { requests: 2, calls: 4, readUnits: 2, writeUnits: 2 },
        "POST /b": { requests: 1, calls: 1, readUnits: 0, writeUnits: 1 },
      },
    });
  });

  it("groups calls by route: ids, MACs and query values left out", () => {
    expect(routeOf("GET", "http://x/api/1.1/nodes/52:54:00:00:00:01/workflows?x=1&a=2")).toBe(
      "GET /api/{version}/nodes/{mac}/workflows?a&x",
    );
    expect(routeOf("POST", "http://x/api/current/tasks/6b05d755d8274a09d045f3bb")).toBe("POST /api/{version}/tasks/{id}");
  });
});
