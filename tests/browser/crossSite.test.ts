import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type Browser, chromium } from "playwright-core";
import { freePort, type OfflineServer, startOffline } from "../support/offlineServer";

jest.setTimeout(240_000);

const CHROMIUM = "/usr/bin/chromium";
const NODE = "6d981c9449891790862c36b1";
const GRAPH = "Graph.Refresh.Immediate.Discovery";
const USER = { username: "admin", password: "Cross-Site-Pa55" };
const TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"];

/**
 * A web page on another origin, visited by an operator whose browser holds their Basic sign-in,
 * posts a form to each change a form can reach with an empty body (the routes whose body is
 * optional or none), in each of a form's content types. A form posted in the top frame is a
 * navigation to the service, and Chromium sends it with the credentials it keeps for the service
 * (a frame's request is another site's, and gets none). In Debian's Chromium against the real
 * `serverless offline`, every one is refused and nothing changes; the operator's own request, with
 * the same browser, goes through.
 */
describe("a page on another origin, in a real browser, after the operator's Basic sign-in", () => {
  let server: OfflineServer;
  let evil: Server;
  let evilUrl: string;
  let browser: Browser;
  const targets = [
    `/api/1.1/nodes/${NODE}/workflows?name=${GRAPH}`,
    `/api/1.1/workflows?name=${GRAPH}`,
    `/api/1.1/tags/demo/nodes/workflows?name=${GRAPH}`,
    `/api/1.1/nodes/${NODE}/obm/identify`,
    `/api/1.1/nodes/${NODE}/instance-credential`,
  ];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`The browser tier needs Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does).`);
    server = await startOffline({
      DEMO_NODES: "on",
      PROVISIONING_AUTH: "on",
      AUTH_USERS: `${USER.username}:${USER.password}`,
      // Any origin may read; no page but the service's own may change.
      CORS_ORIGINS: "*",
    });
    // The attacker's page: ?target=N&type=M is a form that posts itself in the top frame.
    evil = createServer((request, response) => {
      const query = new URL(request.url ?? "/", "http://evil").searchParams;
      const action = `${server.baseUrl}${targets[Number(query.get("target"))]}`;
      const type = TYPES[Number(query.get("type"))];
      response.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>Win a prize</title>
<form method="POST" action="${action}" enctype="${type}"></form><script>document.forms[0].submit();</script>`);
    });
    const port = await freePort();
    await new Promise<void>((resolve) => evil.listen(port, "127.0.0.2", resolve));
    evilUrl = `http://127.0.0.2:${port}/`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => evil?.close(resolve));
    await server?.stop();
  });

  /** What the forms could have changed: the node's workflows, and every workflow. */
  const state = async () => {
    const authorization = `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString("base64")}`;
    const read = async (path: string) =>
      (await (await fetch(`${server.baseUrl}/api/1.1${path}`, { headers: { authorization, connection: "close" } })).json()) as unknown[];
    return { nodeWorkflows: (await read(`/nodes/${NODE}/workflows`)).length, workflows: (await read("/workflows")).length };
  };

  it("has every form's change refused, with the credentials the browser sends, and nothing changed", async () => {
    const context = await browser.newContext({ httpCredentials: USER });
    const page = await context.newPage();
    // The operator signs in: the browser answers the service's Basic challenge and keeps the credentials.
    expect((await page.goto(`${server.baseUrl}/api/1.1/nodes`))?.status()).toBe(200);
    const before = await state();

    const answers: { form: string; status: number; credentials: boolean }[] = [];
    for (const [target, path] of targets.entries())
      for (const [type, name] of TYPES.entries()) {
        const posted = page.waitForResponse((response) => response.request().method() === "POST", { timeout: 30_000 });
        await page.goto(`${evilUrl}?target=${target}&type=${type}`);
        const response = await posted;
        const headers = await response.request().allHeaders();
        answers.push({ form: `${name} ${path}`, status: response.status(), credentials: "authorization" in headers });
      }
    process.stdout.write(
      `cross-site forms: ${answers.length}, ${answers.filter((each) => each.credentials).length} sent with credentials\n`,
    );
    expect(answers.filter((each) => each.status !== 403)).toEqual([]);
    expect(await state()).toEqual(before);

    // The same browser on the service's own page may change: its credentials work.
    await page.goto(`${server.baseUrl}/api/1.1/nodes`);
    const own = await page.evaluate(
      async (path) => (await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status,
      targets[0],
    );
    expect(own).toBe(201);
    expect((await state()).nodeWorkflows).toBe(before.nodeWorkflows + 1);
    await context.close();
  });
});
