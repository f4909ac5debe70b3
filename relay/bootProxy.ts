import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isBootRoute } from "../lib/wire/relay";

/**
 * The relay's boot server: its site's machines boot from it on the local network, and it forwards
 * their boot requests to the service with its credential, so that with BOOT_VIA_RELAY=on nothing
 * about booting faces the internet. Only the routes a booting machine uses pass (the registry's
 * boot routes, each with its method: profiles, templates, the notification, the microkernel's
 * tasks, the file byte routes, /common, cloud-init's seed and the machine's reports; generated into
 * lib/wire, so a new one passes with no edit here); each goes
 * with the machine's address (X-Forwarded-For) and the relay's own URL (X-Relay-Base), which the
 * service renders into the scripts so that every later request comes here too. A file the service
 * answers with a redirect (a large one, in its bucket) is fetched here and streamed on: a machine
 * needs no route to the internet.
 */
export interface BootProxyOptions {
  api: string;
  token: string;
  /** Where to listen, e.g. 0.0.0.0:8080. */
  listen: string;
  /** The URL the machines reach this server at (default: http://<the Host header they sent>). */
  publicUrl?: string;
  log?: (line: string) => void;
  /** What the relay serves itself, before the boot routes (the virtual media images, relay/virtualMedia.ts): true when it answered. */
  serveLocal?: (request: IncomingMessage, response: ServerResponse) => boolean;
}

/**
 * Bounds against a hostile host of the site (issue 50): connections at once, request bodies being
 * read at once (each up to BODY_MAX_BYTES: a machine's catalogs or install log), and how long a
 * request may take to arrive.
 */
export const MAX_CONNECTIONS = 256;
export const MAX_BODIES = 4;
export const BODY_MAX_BYTES = 8 << 20;
const REQUEST_TIMEOUT_MS = 60_000;

/** The answer's headers a machine gets. */
const KEPT_HEADERS = ["content-type", "content-length", "content-disposition", "cache-control"];

/** `host:port` (a bare port: every address), as --listen and --tftp take it; the port after the last colon. */
export const listenAddress = (listen: string): { host: string; port: number } => {
  const [host, port] = listen.includes(":") ? listen.split(/:(?=\d+$)/) : ["0.0.0.0", listen];
  return { host, port: Number(port) };
};

export async function startBootProxy(options: BootProxyOptions): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const { host, port: listenPort } = listenAddress(options.listen);
  const bodies = { reading: 0 };
  const server = createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS / 2 }, (request, response) => {
    void forward(options, request, response, bodies).catch((error: Error) => {
      options.log?.(`boot: ${request.method} ${request.url}: ${error.message}`);
      if (!response.headersSent) response.writeHead(502, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: `The relay could not reach the provisioning service: ${error.message}` }));
    });
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve) => server.listen(listenPort, host, resolve));
  const { port } = server.address() as { port: number };
  const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
  options.log?.(`boot: serving the site's machines on ${host}:${port}`);
  return { server, url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function forward(
  options: BootProxyOptions,
  request: IncomingMessage,
  response: ServerResponse,
  bodies: { reading: number },
): Promise<void> {
  if (options.serveLocal?.(request, response)) return;
  const url = new URL(request.url ?? "/", "http://relay");
  const method = request.method ?? "GET";
  if (!isBootRoute(method, url.pathname)) {
    response
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify({ message: "Not a boot route: the relay forwards only what a booting machine asks for" }));
    return;
  }
  if (method === "POST" && (bodies.reading >= MAX_BODIES || Number(request.headers["content-length"] ?? 0) > BODY_MAX_BYTES)) {
    const busy = bodies.reading >= MAX_BODIES;
    response
      .writeHead(busy ? 503 : 413, { "content-type": "application/json", ...(busy && { "retry-after": "1" }), connection: "close" })
      .end(
        JSON.stringify({
          message: busy ? "The relay is reading other requests: try again" : `A boot request body is at most ${BODY_MAX_BYTES} bytes`,
        }),
      );
    return;
  }
  let body: Buffer | undefined;
  if (method === "POST") {
    bodies.reading += 1;
    try {
      body = await read(request);
    } finally {
      bodies.reading -= 1;
    }
  }
  const passed: Record<string, string> = {};
  for (const name of ["content-type", "user-agent", "accept"]) {
    const value = request.headers[name];
    if (typeof value === "string") passed[name] = value;
  }
  const answer = await askService(options, `${url.pathname}${url.search}`, {
    method,
    body,
    headers: passed,
    machine: request.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "",
    base: options.publicUrl ?? `http://${request.headers.host ?? "relay"}`,
  });
  const out: Record<string, string> = {};
  // fetch hands on a compressed answer's bytes decoded: its length is then not theirs.
  const kept = answer.headers.has("content-encoding") ? KEPT_HEADERS.filter((name) => name !== "content-length") : KEPT_HEADERS;
  for (const name of kept) {
    const value = answer.headers.get(name);
    if (value) out[name] = value;
  }
  response.writeHead(answer.status, out);
  if (!answer.body || method === "HEAD") {
    response.end();
    return;
  }
  const reader = answer.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!response.write(value)) await new Promise((resolve) => response.once("drain", resolve));
  }
  response.end();
}

/**
 * What the relay asks of the service and of a bucket: the bytes as they are, with their length. A
 * compressed answer (serverless offline compresses when asked, and fetch asks) reached the machine
 * without one, in chunks, which iPXE takes far longer to read (a 10 MB initrd: 14.5 s against 0.3 s
 * under OVMF, 4.2 s against 0.3 s under SeaBIOS); the relay would only decode it again anyway.
 */
const AS_THEY_ARE = { "accept-encoding": "identity" };

/**
 * A machine's boot request, asked of the service with the relay's credential, the machine's
 * address (X-Forwarded-For) and the relay's URL the service renders into scripts (X-Relay-Base);
 * a large file the service redirects to its bucket is fetched from there.
 */
export async function askService(
  options: Pick<BootProxyOptions, "api" | "token">,
  pathAndQuery: string,
  request: { method?: string; body?: Buffer; headers?: Record<string, string>; machine: string; base: string },
): Promise<Response> {
  const method = request.method ?? "GET";
  const headers = {
    ...request.headers,
    authorization: `Bearer ${options.token}`,
    "x-forwarded-for": request.machine,
    "x-relay-base": request.base,
    ...AS_THEY_ARE,
  };
  const answer = await fetch(`${options.api.replace(/\/$/, "")}${pathAndQuery}`, {
    method,
    headers,
    body: request.body,
    redirect: "manual",
  });
  // A large file: the service sends the machine to its bucket; fetch it here instead.
  const location = answer.headers.get("location");
  if ((answer.status === 302 || answer.status === 307) && location && method !== "POST")
    return fetch(location, { method, headers: AS_THEY_ARE });
  return answer;
}

async function read(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > BODY_MAX_BYTES) throw new Error(`a boot request body over ${BODY_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
