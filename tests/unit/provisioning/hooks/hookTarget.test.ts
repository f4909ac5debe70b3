import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { checkHookUrl } from "../../../../lib/provisioning/hooks/hook";
import { nonPublicAddress } from "../../../../lib/provisioning/hooks/hookTarget";
import { webhookPoster } from "../../../../lib/store/webhookPoster";

/** Issue 35 §7: a hook cannot make the service post to its own network, its metadata services, or over plain http when deployed. */
const DEPLOYED = { privateTargets: false, http: false };
const VPC = { privateTargets: true, http: false };

describe("where a hook may post", () => {
  it("refuses the metadata services, loopback, link-local and private addresses in every spelling, naming why", () => {
    const spellings = [
      "https://169.254.169.254/latest/meta-data/",
      "https://169.254.170.2/v2/credentials",
      "https://[fd00:ec2::254]/",
      "https://0x7f000001/",
      "https://2130706433/",
      "https://127.1/",
      "https://0177.0.0.1/",
      "https://[::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::ffff:a9fe:a9fe]/",
      "https://[64:ff9b::a9fe:a9fe]/",
      "https://[fe80::1]/",
      "https://10.1.2.3/",
      "https://172.31.255.255/",
      "https://192.168.0.1/",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://localhost/",
      "https://api.localhost/",
      "https://metadata.google.internal/",
    ];
    for (const url of spellings)
      expect(() => checkHookUrl(url, DEPLOYED)).toThrow(
        expect.objectContaining({
          kind: "bad-request",
          message: expect.stringMatching(/^url must name a public address: .* is .*HOOK_PRIVATE_TARGETS/),
        }),
      );
    expect(() => checkHookUrl("https://10.1.2.3/in", VPC)).not.toThrow();
  });

  it("takes public addresses and names, and https only unless HOOK_HTTP allows http", () => {
    for (const url of ["https://hooks.example.com/in", "https://8.8.8.8/", "https://[2606:4700::1111]/", "https://172.32.0.1/"])
      expect(checkHookUrl(url, DEPLOYED)).toBe(url);
    expect(() => checkHookUrl("http://hooks.example.com/in", DEPLOYED)).toThrow(/url must be https: .*HOOK_HTTP/);
    expect(checkHookUrl("http://hooks.example.com/in", { privateTargets: false, http: true })).toBe("http://hooks.example.com/in");
  });

  it("judges every IPv4 address by its range, whether written as IPv4 or inside IPv6", () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const mapped = nonPublicAddress(`::ffff:${ip}`);
        expect(mapped).toBe(nonPublicAddress(ip));
        const [a, b] = ip.split(".").map(Number);
        const privateByRfc1918 = a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168);
        if (privateByRfc1918 || a === 127 || (a === 169 && b === 254)) expect(nonPublicAddress(ip)).toBeDefined();
      }),
    );
    expect(nonPublicAddress("93.184.216.34")).toBeUndefined();
    expect(nonPublicAddress("not-an-ip")).toBe("not an IP address");
  });
});

describe("a delivery re-checks where it goes (the poster)", () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      hits += 1;
      request.resume();
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("refuses a name that resolves to a private address, before any byte leaves", async () => {
    const before = hits;
    const outcome = await webhookPoster({ privateTargets: false, http: true }).post(`http://localhost:${port}/in`, {}, "{}");
    expect("error" in outcome && outcome.error).toMatch(/^refused: localhost resolves to a non-public address \(loopback/);
    // Where an internal name resolves is not told (issue 50).
    expect("error" in outcome && outcome.error).not.toMatch(/127\.0\.0\.1|::1/);
    expect(await webhookPoster({ privateTargets: false, http: true }).post(`http://127.0.0.1:${port}/in`, {}, "{}")).toEqual({
      error: "refused: 127.0.0.1 is loopback",
    });
    expect(await webhookPoster(DEPLOYED).post(`http://127.0.0.1:${port}/in`, {}, "{}")).toEqual({
      error: "refused: plain http (HOOK_HTTP=off)",
    });
    expect(hits).toBe(before);
  });

  it("delivers where the stage allows private targets; a closed port is the attempt's error", async () => {
    const outcome = await webhookPoster({ privateTargets: true, http: true }).post(
      `http://127.0.0.1:${port}/in`,
      { "content-type": "application/json" },
      "{}",
    );
    expect(outcome).toEqual({ status: 204 });
    const closed = await webhookPoster({ privateTargets: true, http: true }).post("http://127.0.0.1:1/in", {}, "{}");
    expect(closed).toEqual({ error: "ECONNREFUSED" });
  });
});
