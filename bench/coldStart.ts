import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { nodeIdForMac } from "../lib/provisioning/ids";
import { functionsOf } from "./bundles";
import { event } from "./harness";

const run = promisify(execFile);

export interface ColdFigure {
  name: string;
  bundleBytes: number;
  /** The same function's bundle for a STORE=dynamodb deployment. */
  dynamodbBundleBytes?: number;
  loadMs: number;
  firstResponseMs: number;
  /** firstResponseMs / the baseline's. */
  ratio: number;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A first request for a function: its route with plausible path parameters. */
function firstEvent(method: string | undefined, path: string | undefined) {
  const params: Record<string, string> = {
    id: "1",
    version: "1.1",
    identifier: nodeIdForMac("08:00:27:27:eb:12"),
    name: "Graph.InstallCentOS",
    service: "noop-obm-service",
  };
  if (!method || !path) return event({ method: "GET", path: "/nothing", route: "$default" });
  const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
  const pathParameters = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, params[name]]));
  const body = method === "GET" || method === "DELETE" ? undefined : '{"title":"x","name":"Graph.noop-example"}';
  return event({ method, path: concrete, route: path, pathParameters, headers: { "content-type": "application/json" }, body });
}

/**
 * Each bundled handler started in a fresh process `runs` times (median): time from the process's
 * start to its first response, against the bare baseline measured the same way.
 */
export async function coldStarts(
  bundles: Record<string, { file: string; bytes: number }>,
  runs: number,
  dynamoBundles: Record<string, { bytes: number }> = {},
): Promise<ColdFigure[]> {
  const child = join(__dirname, "coldChild.js");
  const env = { ...process.env, LOG_REQUESTS: "off", DEMO_NODES: "on", STORE: "memory" };
  const specs = [
    { name: "baseline", method: "POST", path: "/records/{id}" },
    { name: "middyBaseline", method: "POST", path: "/records/{id}" },
    ...functionsOf(),
  ];
  const figures: ColdFigure[] = [];
  for (const spec of specs) {
    const samples: { loadMs: number; firstResponseMs: number }[] = [];
    const payload = JSON.stringify(
      spec.name.endsWith("aseline")
        ? event({ method: "POST", path: "/records/1", route: "/records/{id}", pathParameters: { id: "1" }, body: "{}" })
        : firstEvent(spec.method, spec.path),
    );
    for (let i = 0; i < runs; i += 1) {
      const { stdout } = await run(process.execPath, [child, bundles[spec.name].file, payload], { env });
      samples.push(JSON.parse(stdout));
    }
    figures.push({
      name: spec.name,
      bundleBytes: bundles[spec.name].bytes,
      dynamodbBundleBytes: dynamoBundles[spec.name]?.bytes,
      loadMs: Math.round(median(samples.map((s) => s.loadMs)) * 10) / 10,
      firstResponseMs: Math.round(median(samples.map((s) => s.firstResponseMs)) * 10) / 10,
      ratio: 0,
    });
  }
  const baseline = figures[0].firstResponseMs;
  for (const figure of figures) figure.ratio = Math.round((figure.firstResponseMs / baseline) * 100) / 100;
  return figures;
}
