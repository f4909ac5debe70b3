import { createServer } from "node:http";
import autocannon from "autocannon";
import { nodeIdForMac } from "../lib/provisioning/ids";
import { freePort, http as request, startOffline } from "../tests/support/offlineServer";

export interface HttpFigure {
  name: string;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

async function load(
  name: string,
  url: string,
  seconds: number,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpFigure> {
  const result = await autocannon({
    url,
    connections: 10,
    duration: seconds,
    method: (options.method ?? "GET") as "GET",
    headers: options.headers,
    body: options.body,
  });
  return {
    name,
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/**
 * autocannon (10 connections, loopback) against the real serverless offline: one task, a task
 * create, the node list, a boot profile. The baseline is a bare node:http server answering JSON.
 */
export async function httpFigures(seconds: number): Promise<HttpFigure[]> {
  const port = await freePort();
  const bare = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ task: { id: 1, title: "Buy groceries", description: "", done: false } }));
  });
  await new Promise<void>((resolve) => bare.listen(port, "127.0.0.1", resolve));
  const figures = [await load("baseline: bare node:http JSON", `http://127.0.0.1:${port}/`, seconds)];
  bare.close();

  const server = await startOffline({ DEMO_NODES: "on", LOG_REQUESTS: "off", MEMORY_STORE_CAPACITY: "10000000" });
  try {
    const json = { "content-type": "application/json" };
    const base = server.baseUrl;
    const node = nodeIdForMac("08:00:27:27:eb:12");
    await request(base, "POST", "/todo/api/v1.0/tasks", { headers: json, body: '{"title":"Buy groceries"}' });
    await request(base, "POST", `/api/1.1/nodes/${node}/obm`, { headers: json, body: '{"service":"noop-obm-service","config":{}}' });
    const started = await request(base, "POST", `/api/1.1/nodes/${node}/workflows`, {
      headers: json,
      body: JSON.stringify({
        name: "Graph.InstallCentOS",
        options: { "install-os": { version: "7.0", repo: "{{api.server}}/Centos/7.0", rootPassword: "root" } },
      }),
    });
    if (started.status !== 201) throw new Error(`workflow start answered ${started.status}`);
    figures.push(await load("GET /todo/api/v1.0/tasks/1", `${base}/todo/api/v1.0/tasks/1`, seconds));
    figures.push(
      await load("POST /todo/api/v1.0/tasks", `${base}/todo/api/v1.0/tasks`, seconds, {
        method: "POST",
        headers: json,
        body: '{"title":"Read a book"}',
      }),
    );
    figures.push(await load("GET /api/1.1/nodes", `${base}/api/1.1/nodes`, seconds));
    figures.push(
      await load("GET /api/current/profiles?macs= (install profile)", `${base}/api/current/profiles?macs=08:00:27:27:eb:12`, seconds),
    );
  } finally {
    await server.stop();
  }
  return figures;
}
