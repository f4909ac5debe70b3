import type { Invocation } from "./invocation";

/** The unit of each metric (Count unless listed). */
const UNITS: Readonly<Record<string, string>> = { Latency: "Milliseconds" };

/**
 * The invocation's metrics as one CloudWatch embedded-metric-format line: CloudWatch Logs turns
 * it into metrics (no API call, no SDK, nothing added to the bundle or the cold start), each both
 * per function and for the whole service (the alarms' dimension set). METRICS=off writes nothing.
 */
export function writeMetrics(invocation: Invocation, now: Date = new Date()): void {
  if (process.env.METRICS?.trim().toLowerCase() === "off" || invocation.counts.size === 0) return;
  const values = Object.fromEntries(invocation.counts);
  const line = {
    _aws: {
      Timestamp: now.getTime(),
      CloudWatchMetrics: [
        {
          Namespace: process.env.METRICS_NAMESPACE || "lambda-tasks-provisioning",
          Dimensions: [["function"], []],
          Metrics: Object.keys(values).map((name) => ({ Name: name, Unit: UNITS[name] ?? "Count" })),
        },
      ],
    },
    function: invocation.function,
    ...values,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
