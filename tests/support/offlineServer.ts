import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { checkAgainstContract } from "./contract";

const ROOT = join(__dirname, "../..");
const SERVERLESS = join(ROOT, "node_modules/serverless/bin/serverless.js");

export interface OfflineServer {
  baseUrl: string;
  /** serverless offline's Lambda invoke API (POST /2015-03-31/functions/<name>/invocations runs a function now). */
  lambdaUrl: string;
  /** The settings the server was started with (store, table, ...). */
  env: Record<string, string>;
  port: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** The ports this process has handed out: never the same one twice. */
const handedOut = new Set<number>();

/** Whether nothing listens on `port` at any IPv4 address of this host. */
const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "0.0.0.0", () => server.close(() => resolve(true)));
  });

/**
 * A port nothing listens on, for a server the test starts. Drawn at random below the kernel's
 * ephemeral range (32768 and up) rather than asked of the kernel with port 0: the kernel hands the
 * ports it just gave one process to the next, and between a test file's draw and its server's
 * listen (seconds, for serverless offline) another file drew the same port for a VM's SSH
 * forwarding, whose QEMU then answered the server's first request by closing it.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error("no free port between 20000 and 32000 after 100 draws");
}

/**
 * Waits until the server answers HTTP on its port (any status): "Server ready" is printed as it
 * starts listening. Twice in the boot tier the first request after it was closed unanswered
 * ("other side closed") while another test file started its server and machines; the next try
 * says whether it was a moment or a server that is gone, with its output.
 */
async function answering(baseUrl: string, output: () => string, withinMs = 30_000): Promise<void> {
  const until = Date.now() + withinMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      // An unrouted path: the catch-all answers 404 and touches no data.
      await (await fetch(`${baseUrl}/__ready`, { headers: { connection: "close" } })).arrayBuffer();
      if (attempt > 1) process.stdout.write(`serverless offline at ${baseUrl} answered at its try ${attempt}\n`);
      return;
    } catch (error) {
      if (Date.now() > until)
        throw new Error(
          `serverless offline at ${baseUrl} does not answer (${String((error as Error).cause ?? error)}):\n${output().slice(-4000)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * Starts the real `serverless offline` (osls + serverless-offline, the local stage's one bundle
 * built by serverless.yml's bundler, deploy/bundler.js) on free ports with the given settings, and
 * resolves once it says "Server ready". Each server bundles into its own work folder so several
 * can run at once; either mode builds the local stage's one bundle (under a second). The time-out
 * is for a server that never starts, not a slow one.
 */
export async function startOffline(env: Record<string, string> = {}, timeoutMs = 240_000): Promise<OfflineServer> {
  const storeEnv = onDynamoDb() ? await dynamoDbEnv() : {};
  // A caller may pick the port (to name it in API_SERVER, say).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const lambdaPort = await freePort();
  // The WebSocket API's (the relays' push, issue 56); a caller may pick it (or RELAY_PUSH_URL, to turn the push off).
  const webSocketPort = env.WEBSOCKET_PORT ? Number(env.WEBSOCKET_PORT) : await freePort();
  const workFolder = `.esbuild-e2e-${port}`;
  const child: ChildProcess = spawn(process.execPath, [SERVERLESS, "offline", "--stage", "local"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      SLS_TELEMETRY_DISABLED: "1",
      SLS_NOTIFICATIONS_MODE: "off",
      PORT: String(port),
      LAMBDA_PORT: String(lambdaPort),
      WEBSOCKET_PORT: String(webSocketPort),
      ESBUILD_WORK_FOLDER: workFolder,
      ...storeEnv,
      ...env,
    },
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serverless offline did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    let ready = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // Searched until found only: the output grows with every request's log line, and searching it
      // all again at each chunk is quadratic (20,000 lines of 300 bytes: 199 s of CPU, against 1 ms
      // to append them), which the fuzz's jest worker spent beside its 20,000 requests.
      if (!ready && output.includes("Server ready")) {
        ready = true;
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serverless offline exited with ${code}:\n${output}`));
    });
  });
  await answering(`http://127.0.0.1:${port}`, () => output);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    lambdaUrl: `http://127.0.0.1:${lambdaPort}`,
    env: { ...storeEnv, ...env },
    port,
    output: () => output,
    stop: async () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.unref();
      rmSync(join(ROOT, workFolder), { recursive: true, force: true });
    },
  };
}

/** True in the e2e-dynamodb project: the suites run on the DynamoDB store, every function in its own worker. */
export const onDynamoDb = (): boolean => process.env.E2E_STORE === "dynamodb";

/** Settings for a server on a fresh table of the run's DynamoDB Local and a fresh bucket of its local S3 server, in worker-thread mode (like separate containers). */
async function dynamoDbEnv(): Promise<Record<string, string>> {
  const { freshBucket, freshTable, testEndpoint, testS3Endpoint } = await import("./dynamoTables");
  return {
    STORE: "dynamodb",
    OFFLINE_IN_PROCESS: "false",
    DYNAMODB_ENDPOINT: testEndpoint(),
    DYNAMODB_TABLE: await freshTable("e2e"),
    S3_ENDPOINT: testS3Endpoint(),
    FILES_BUCKET: await freshBucket("e2e"),
  };
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
  raw: string;
}

/** Real HTTP with fetch; JSON answers are decoded. */
export async function http(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpAnswer> {
  const response = await fetch(baseUrl + path, { method, headers: options.headers, body: options.body, redirect: "manual" });
  const raw = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  let body: unknown = raw;
  if (contentType.startsWith("application/json") && raw !== "") body = JSON.parse(raw);
  // Every answer over HTTP is checked against the services' OpenAPI documents.
  checkAgainstContract({ method, path: new URL(baseUrl + path).pathname, status: response.status, contentType, body });
  return { status: response.status, headers: response.headers, body, raw };
}

/**
 * RackHD's API over real HTTP as its clients call it: a path under /api/1.1, a JSON body when one
 * is given. `baseUrl` is read at each call (a test's server starts in its beforeAll).
 */
export const rackhdApi =
  (baseUrl: () => string) =>
  (method: string, path: string, body?: unknown): Promise<HttpAnswer> =>
    http(baseUrl(), method, `/api/1.1${path}`, {
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
