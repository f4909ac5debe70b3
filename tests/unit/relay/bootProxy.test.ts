import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { startBootProxy } from "../../../relay/bootProxy";

/**
 * The relay's boot server hands a machine the service's bytes with their length, as iPXE reads
 * them fastest: the service's side is a small HTTP server that compresses when asked (as
 * serverless offline does) or always (a server that ignores the relay's asking).
 */
describe("the relay's boot server: a file's bytes and their length", () => {
  const initrd = randomBytes(300_000);
  const asked: IncomingHttpHeaders[] = [];
  let service: Server;
  let relay: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    service = createServer((request, response) => {
      asked.push(request.headers);
      // A large file: the service sends the relay to its bucket (here, the same server).
      if (request.url === "/common/in-bucket")
        return response.writeHead(302, { location: `http://${request.headers.host}/bucket/initrd.img?signed` }).end();
      const gzipAlways = request.url === "/common/always-gzipped";
      if (gzipAlways || /gzip/.test(request.headers["accept-encoding"] ?? "")) {
        const packed = gzipSync(initrd);
        response.writeHead(200, {
          "content-type": "application/octet-stream",
          "content-encoding": "gzip",
          "content-length": packed.length,
        });
        return response.end(packed);
      }
      response.writeHead(200, { "content-type": "application/octet-stream", "content-length": initrd.length });
      response.end(initrd);
    });
    await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
    relay = await startBootProxy({
      api: `http://127.0.0.1:${(service.address() as { port: number }).port}`,
      token: "relay-token",
      listen: "127.0.0.1:0",
    });
  });

  afterAll(async () => {
    await relay.close();
    await new Promise((resolve) => service.close(resolve));
  });

  it("asks the service for the bytes as they are, and passes their length on (no chunks)", async () => {
    asked.length = 0;
    const answer = await fetch(`${relay.url}/common/initrd.img`, { headers: { "accept-encoding": "identity" } });
    const body = Buffer.from(await answer.arrayBuffer());
    expect(asked[0]["accept-encoding"]).toBe("identity");
    expect(answer.headers.get("content-length")).toBe(String(initrd.length));
    expect(answer.headers.get("transfer-encoding")).toBeNull();
    expect(body.equals(initrd)).toBe(true);
  });

  it("asks the bucket a large file is redirected to for the bytes as they are too, and passes their length on", async () => {
    asked.length = 0;
    const answer = await fetch(`${relay.url}/common/in-bucket`, { headers: { "accept-encoding": "identity" } });
    const body = Buffer.from(await answer.arrayBuffer());
    expect(asked.map((headers) => headers["accept-encoding"])).toEqual(["identity", "identity"]);
    expect(answer.headers.get("content-length")).toBe(String(initrd.length));
    expect(body.equals(initrd)).toBe(true);
  });

  it("gives no length when the service compressed all the same (the relay hands on the decoded bytes)", async () => {
    const answer = await fetch(`${relay.url}/common/always-gzipped`, { headers: { "accept-encoding": "identity" } });
    const body = Buffer.from(await answer.arrayBuffer());
    expect(answer.headers.get("content-length")).toBeNull();
    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(body.equals(initrd)).toBe(true);
  });
});
