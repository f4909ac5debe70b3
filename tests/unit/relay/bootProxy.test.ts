import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import { BODY_MAX_BYTES, MAX_BODIES, startBootProxy } from "../../../relay/bootProxy";
import { onBmc } from "../../../relay/drivers/redfishSession";
import { redact } from "../../../relay/redact";

/** The service's stand-in listening on loopback, and the relay's boot server in front of it. */
async function relayBefore(service: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  return startBootProxy({
    api: `http://127.0.0.1:${(service.address() as { port: number }).port}`,
    token: "relay-token",
    listen: "127.0.0.1:0",
  });
}

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
    relay = await relayBefore(service);
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

describe("the relay's boot server under a hostile host of its site (issue 50)", () => {
  let service: Server;
  let relay: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    service = createServer((request, response) => {
      request.resume();
      request.on("end", () => response.end("{}"));
    });
    relay = await relayBefore(service);
  });

  afterAll(async () => {
    await relay.close();
    await new Promise((resolve) => service.close(resolve));
  });

  it(`refuses a body over ${BODY_MAX_BYTES} bytes by its length (413), before reading it`, async () => {
    const { port } = new URL(relay.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        { port, host: "127.0.0.1", method: "POST", path: "/api/current/notification", headers: { "content-length": BODY_MAX_BYTES + 1 } },
        (response) => {
          let body = "";
          response.on("data", (chunk) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on("error", reject);
      request.write("x");
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).message).toMatch(/at most/);
  });

  it(`reads at most ${MAX_BODIES} bodies at once: the next POST is 503 with Retry-After`, async () => {
    const { port } = new URL(relay.url);
    // Slow senders: each starts a body and sends no more.
    const slow = Array.from({ length: MAX_BODIES }, () => {
      const request = httpRequest({
        port,
        host: "127.0.0.1",
        method: "POST",
        path: "/api/current/notification",
        headers: { "content-length": 1_000 },
      });
      request.on("error", () => undefined);
      request.write("x");
      return request;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const answer = await fetch(`${relay.url}/api/current/notification`, { method: "POST", body: "{}" });
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("1");
    for (const request of slow) request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`${relay.url}/api/current/notification`, { method: "POST", body: "{}" })).status).toBe(200);
  });
});

describe("the relay's log", () => {
  it("carries no boot token, instance credential or Bearer token (issue 50)", () => {
    const line = redact(
      "tftp: 10.1.0.9 api/current/templates/x?nodeId=abc&token=s3cr3t-T0ken: GET /api/1.1/nocloud/cred.Secret/user-data, /api/current/reports/cred.Secret2/logs/x; Bearer abc.DEF-ghi",
    );
    expect(line).toBe(
      "tftp: 10.1.0.9 api/current/templates/x?nodeId=abc&token=…: GET /api/1.1/nocloud/…/user-data, /api/current/reports/…/logs/x; Bearer …",
    );
    expect(redact("tftp: 10.1.0.9 /grub/machine/52:54:00:5b:00:01 (12 bytes)")).toBe(
      "tftp: 10.1.0.9 /grub/machine/52:54:00:5b:00:01 (12 bytes)",
    );
  });
});

describe("a Redfish BMC's links", () => {
  it("are followed on the BMC only: an absolute @odata.id to another host is refused, so the credentials never go there (issue 50)", () => {
    expect(onBmc("/redfish/v1/Systems/1", "https://10.1.0.20").href).toBe("https://10.1.0.20/redfish/v1/Systems/1");
    expect(onBmc("https://10.1.0.20/redfish/v1/Systems/1", "https://10.1.0.20").pathname).toBe("/redfish/v1/Systems/1");
    expect(() => onBmc("https://attacker.example/redfish/v1/Systems/1", "https://10.1.0.20")).toThrow(/another host/);
    expect(() => onBmc("//attacker.example/x", "https://10.1.0.20")).toThrow(/another host/);
  });
});
