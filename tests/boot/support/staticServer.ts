import { createReadStream, statSync } from "node:fs";
import { createServer, type Server } from "node:http";

export interface StaticServer {
  url: string;
  /** Request lines served, e.g. "GET /centos/7/images/pxeboot/vmlinuz 200". */
  log: string[];
  close: () => Promise<void>;
}

/** Serves fixed files at fixed paths (the install repo the workflow names) on `host`: loopback, or a site's network. */
export async function serveFiles(files: Record<string, string>, host = "127.0.0.1"): Promise<StaticServer> {
  const log: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    const file = files[path];
    log.push(`${request.method} ${path} ${file ? 200 : 404}`);
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-length": statSync(file).size, "content-type": "application/octet-stream" });
    if (request.method === "HEAD") response.end();
    else createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://${host}:${port}`, log, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
