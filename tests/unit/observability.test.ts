import { annotate, count, invocationOf, runAs } from "../../lib/invocation";
import { logLine } from "../../lib/logger";
import { writeMetrics } from "../../lib/metrics";

/** What `work` writes to stdout, line by line, parsed. */
function written(work: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    work();
  } finally {
    spy.mockRestore();
  }
  return lines.map((line) => JSON.parse(line));
}

afterEach(() => {
  for (const name of ["LOG_LEVEL", "METRICS", "METRICS_NAMESPACE"]) delete process.env[name];
  process.env.METRICS = "off";
});

describe("log lines", () => {
  it("drop what is below LOG_LEVEL, and take info for a level they do not know (a logger never fails)", () => {
    const levels = ["debug", "info", "warn", "error"] as const;
    const at = (threshold: string | undefined) => {
      if (threshold === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = threshold;
      return written(() => {
        for (const level of levels) logLine({ level, msg: level });
      }).map((line) => line.msg);
    };
    expect(at(undefined)).toEqual(["info", "warn", "error"]);
    expect(at("debug")).toEqual(["debug", "info", "warn", "error"]);
    expect(at("WARN")).toEqual(["warn", "error"]);
    expect(at("error")).toEqual(["error"]);
    expect(at("loud")).toEqual(["info", "warn", "error"]);
  });

  it("carry the invocation's fields, the first node a request is about staying the one it is about", () => {
    const invocation = invocationOf("getNode", {}, { requestId: "r1", correlationId: "c1" });
    const [line] = written(() =>
      runAs(invocation, () => {
        annotate({ nodeId: "n1", workflowId: undefined });
        annotate({ nodeId: "n2", workflowId: "w1" });
        logLine({ level: "info", msg: "hello", extra: 1 });
      }),
    );
    expect(line).toEqual({
      time: expect.any(String),
      level: "info",
      msg: "hello",
      function: "getNode",
      requestId: "r1",
      correlationId: "c1",
      nodeId: "n1",
      workflowId: "w1",
      extra: 1,
    });
    // Outside any invocation: the line's own fields only, and annotating or counting is harmless.
    annotate({ nodeId: "x" });
    count("Nothing");
    expect(written(() => logLine({ level: "warn", msg: "alone" }))).toEqual([{ time: expect.any(String), level: "warn", msg: "alone" }]);
  });
});

describe("metrics lines (CloudWatch embedded metric format)", () => {
  it("hold what the invocation counted, summed, under the stage's namespace, per function and for the service", () => {
    process.env.METRICS = "on";
    process.env.METRICS_NAMESPACE = "svc/prod";
    const invocation = invocationOf("bootProfile", {});
    runAs(invocation, () => {
      count("Boots");
      count("Latency", 2.5);
      count("Latency", 1);
    });
    const [line] = written(() => writeMetrics(invocation, new Date(1_000)));
    expect(line).toEqual({
      _aws: {
        Timestamp: 1_000,
        CloudWatchMetrics: [
          {
            Namespace: "svc/prod",
            Dimensions: [["function"], []],
            Metrics: [
              { Name: "Boots", Unit: "Count" },
              { Name: "Latency", Unit: "Milliseconds" },
            ],
          },
        ],
      },
      function: "bootProfile",
      Boots: 1,
      Latency: 3.5,
    });
  });

  it("are not written under METRICS=off, nor when nothing was counted", () => {
    const counted = invocationOf("f", {});
    runAs(counted, () => count("Requests"));
    process.env.METRICS = "off";
    expect(written(() => writeMetrics(counted))).toEqual([]);
    process.env.METRICS = "on";
    expect(written(() => writeMetrics(invocationOf("g", {})))).toEqual([]);
  });
});
