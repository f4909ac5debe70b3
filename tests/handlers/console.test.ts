import { gunzipSync } from "node:zlib";
import { consoleHtml } from "../../lib/http/console/consolePage";
import { api, get } from "../support/api";

/** The asset names the page links to. */
const assetsOf = (html: string): string[] => [...html.matchAll(/(?:href|src)="([^"]*\/console\/[^"]+)"/g)].map((match) => match[1]);

describe("the console's page and assets", () => {
  it("serves a shell page that names its assets by content, never cached, with a policy that allows only this service", async () => {
    const page = await get("/console");
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({ "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'; script-src 'self'");
    const [style, script] = assetsOf(page.raw);
    expect(style).toMatch(/^\/console\/assets\/app-[0-9a-f]{12}\.css$/);
    expect(script).toMatch(/^\/console\/assets\/app-[0-9a-f]{12}\.js$/);
    expect(page.raw).not.toMatch(/https?:\/\//);
  });

  it("serves each asset for a year, immutable; an unknown name is a JSON 404", async () => {
    const [style, script] = assetsOf((await get("/console")).raw);
    const js = await get(script);
    expect(js).toMatchObject({ status: 200, headers: { "content-type": "text/javascript; charset=utf-8" } });
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // Preact and dagre are in the bundle: nothing loads from elsewhere.
    expect(js.raw.length).toBeGreaterThan(20_000);
    expect(js.raw).not.toMatch(/\bimport\(|https?:\/\/(?!www\.w3\.org)/);
    expect((await get(style)).headers["content-type"]).toBe("text/css; charset=utf-8");
    // Gzipped for a browser that takes it (an HTTP API compresses nothing itself): the same bytes.
    const gzipped = await api({ method: "GET", path: script, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(gzipped.headers).toMatchObject({ "content-encoding": "gzip", vary: "accept-encoding" });
    expect(gunzipSync(gzipped.bytes).toString()).toBe(js.raw);
    expect(gzipped.bytes.length).toBeLessThan(js.raw.length / 2);
    expect(await get("/console/assets/app-000000000000.js")).toMatchObject({
      status: 404,
      body: { message: expect.stringMatching(/reload/) },
    });
    expect((await get("/console/assets/other.js")).status).toBe(404);
  });

  it("prefixes the assets with whatever precedes /console (an API Gateway stage, a base path)", () => {
    for (const asset of assetsOf(consoleHtml("/prod"))) expect(asset).toMatch(/^\/prod\/console\/assets\//);
  });
});

describe("GET /docs (RackHD's docs address)", () => {
  it("redirects to the provisioning API's docs page, behind any stage prefix", async () => {
    const answer = await get("/docs");
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/api/1.1/docs");
    expect((await get(answer.headers.location)).status).toBe(200);
  });
});
