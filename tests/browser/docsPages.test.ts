import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import provisioningDocument from "../../lib/http/openapi/provisioning.generated.json";
import tasksDocument from "../../lib/http/openapi/tasks.generated.json";
import { operationsOf } from "../support/contract";
import { type OfflineServer, startOffline } from "../support/offlineServer";

jest.setTimeout(180_000);

/** Where the screenshots go (the README names it). */
const SCREENSHOTS = join(__dirname, "../../test-artifacts/docs");
const CHROMIUM = "/usr/bin/chromium";

const operationIds = (document: { paths: Record<string, Record<string, { operationId: string }>> }): string[] =>
  Object.values(document.paths).flatMap((operations) => operationsOf(operations).map(([, operation]) => operation.operationId));

/**
 * Each docs page in a real browser (Debian's Chromium, driven by playwright-core) against the real
 * `serverless offline`: Redoc renders every operation of the document, and the page loads nothing
 * from anywhere but the service.
 */
describe("the docs pages in a real browser", () => {
  let server: OfflineServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`The browser tier needs Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does).`);
    server = await startOffline({ DEMO_NODES: "off" });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each([
    ["tasks", "/todo/api/v1.0/docs", operationIds(tasksDocument as never)],
    ["provisioning", "/api/1.1/docs", operationIds(provisioningDocument as never)],
  ])("%s: lists every operation, loading nothing from elsewhere", async (service, path, operations) => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    // What reached another host: a request the page's Content-Security-Policy blocks never does
    // (Redoc asks for its logo from Redocly's CDN; the policy stops it in the browser).
    const foreign: string[] = [];
    const isForeign = (url: string) => !url.startsWith(server.baseUrl) && !url.startsWith("data:") && !url.startsWith("blob:");
    page.on("response", (response) => isForeign(response.url()) && foreign.push(response.url()));
    page.on("requestfailed", (request) => {
      if (isForeign(request.url()) && !/csp/i.test(request.failure()?.errorText ?? ""))
        foreign.push(`${request.url()} (${request.failure()?.errorText})`);
    });
    const answer = await page.goto(server.baseUrl + path);
    expect(answer?.status()).toBe(200);
    await page.waitForSelector('[data-section-id^="tag/"]', { timeout: 60_000 });
    const listed = await page.$$eval("[data-section-id]", (elements) =>
      elements.map((element) => element.getAttribute("data-section-id") ?? ""),
    );
    for (const operation of operations)
      expect({ operation, listed: listed.some((id) => id.endsWith(`operation/${operation}`)) }).toEqual({ operation, listed: true });
    await page.screenshot({ path: join(SCREENSHOTS, `${service}.png`), fullPage: false });
    expect(foreign).toEqual([]);
    await page.close();
  });
});
