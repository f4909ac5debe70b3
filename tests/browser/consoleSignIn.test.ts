import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { freePort, type OfflineServer, startOffline } from "../support/offlineServer";
import { type OidcProvider, startOidcProvider } from "../support/oidc";

jest.setTimeout(240_000);

const CHROMIUM = "/usr/bin/chromium";

/**
 * Issue 55: the console signs in with the company's identity provider in a real browser (Debian's
 * Chromium): the real `oidc-provider`'s login page, the authorization code flow with PKCE run by
 * the service, and a session the page's scripts cannot read (an HttpOnly cookie; nothing in the
 * page's storage). The API answers the signed-in user with their group's role.
 */
describe("the console's sign-in with an identity provider, in a real browser", () => {
  let provider: OidcProvider;
  let server: OfflineServer;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`The browser tier needs Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does).`);
    const port = await freePort();
    provider = await startOidcProvider([`http://127.0.0.1:${port}/console/callback`]);
    server = await startOffline({
      PORT: String(port),
      DEMO_NODES: "on",
      PROVISIONING_AUTH: "on",
      AUTH_ROLES: "group:netops=admin,group:auditors=viewer",
      OIDC_ISSUER: provider.issuer,
      OIDC_AUDIENCE: provider.api,
      OIDC_CONSOLE_CLIENT: "rackhd-console",
      OIDC_CONSOLE_SCOPE: "openid email groups",
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    provider?.stop();
  });

  async function open(): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    // The console's own errors (the provider's page asks for a favicon it has not); a 401 before signing in is the browser's own line.
    page.on("console", (message) => {
      const ours = page.url().startsWith(server.baseUrl);
      if (ours && message.type() === "error" && !/status of 401/.test(message.text())) errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${server.baseUrl}/console`);
    return page;
  }

  async function signIn(page: Page, user: string): Promise<void> {
    await page.getByRole("link", { name: "Sign in with your company account" }).click();
    await page.getByRole("heading", { name: "Sign in to the company" }).waitFor();
    await page.getByLabel("User").fill(user);
    await page.getByLabel("Password").fill(provider.users[user].password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.baseUrl}/console`);
  }

  it("signs in through the provider's page and keeps the session where no script reads it", async () => {
    const page = await open();
    await page.getByRole("dialog", { name: "Sign in" }).waitFor();
    await signIn(page, "alice");
    await page.getByText("alice@example.com").waitFor();
    // The demo machines, read with alice's group's role.
    await page.getByRole("link", { name: "08:00:27:27:eb:12" }).first().waitFor();
    expect(await page.getByRole("dialog", { name: "Sign in" }).count()).toBe(0);

    expect(await page.evaluate("document.cookie")).toBe("");
    expect(await page.evaluate("sessionStorage.length + localStorage.length")).toBe(0);
    const session = (await page.context().cookies()).find((cookie) => cookie.name === "rhd_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
    // The cookie is a session of the service's: the API takes it from the browser, and from nothing else.
    expect(session?.value).toMatch(/^rhdt_/);
    expect((await page.context().request.get(`${server.baseUrl}/api/1.1/nodes`)).status()).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/1.1/nodes`)).status).toBe(401);
    // A change carried by the cookie from another origin is refused (the browser would send it; SameSite=Strict keeps it home too).
    const forged = await page.context().request.patch(`${server.baseUrl}/api/1.1/nodes/x`, {
      headers: { origin: "https://evil.example.com", "content-type": "application/json" },
      data: { name: "x" },
    });
    expect(forged.status()).toBe(403);
    // The sign-in is in the audit trail under alice's name.
    const trail = await (await page.context().request.get(`${server.baseUrl}/api/1.1/audit?actor=oidc:alice@example.com`)).json();
    expect(trail).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "consoleCallback", method: "GET", status: 302, verified: true })]),
    );
    // The refused change, refused before its credentials were read: recorded, its actor not verified.
    const every = await (await page.context().request.get(`${server.baseUrl}/api/1.1/audit`)).json();
    expect(every).toEqual(expect.arrayContaining([expect.objectContaining({ action: "patchNode", status: 403, verified: false })]));

    // The trail in the console: its own page, and a machine's.
    await page.getByRole("link", { name: "Audit" }).click();
    const table = page.getByRole("table", { name: "Who did what" });
    await table.getByText("consoleCallback").first().waitFor();
    await page.getByRole("textbox", { name: "Who", exact: true }).fill("nobody-at-all");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("Nothing recorded in the week before.").waitFor();
    // A change alice makes from the console's own page is on the machine's page.
    const nodes = (await (await page.context().request.get(`${server.baseUrl}/api/1.1/nodes`)).json()) as { id: string; name: string }[];
    const machine = nodes.find((node) => node.name === "08:00:27:27:eb:12")!.id;
    const renamed = await page.evaluate(
      (id) =>
        fetch(`/api/1.1/nodes/${id}`, {
          method: "PATCH",
          credentials: "same-origin",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "08:00:27:27:eb:12" }),
        }).then((response) => response.status),
      machine,
    );
    expect(renamed).toBe(200);
    await page.goto(`${server.baseUrl}/console#/machines`);
    await page.getByRole("link", { name: "08:00:27:27:eb:12" }).click();
    await page.getByRole("table", { name: "Who did what to it" }).getByText("patchNode").waitFor();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.reload();
    await page.getByRole("dialog", { name: "Sign in" }).waitFor();
    expect((await page.context().cookies()).find((cookie) => cookie.name === "rhd_session")).toBeUndefined();
    // Signing out ended the session itself: its value, copied before, opens nothing.
    // A connection of its own: a kept-alive one the server closed meanwhile would fail the read, not the session.
    const copied = await fetch(`${server.baseUrl}/api/1.1/nodes`, {
      headers: { cookie: `rhd_session=${session?.value}`, connection: "close" },
    });
    expect(copied.status).toBe(401);
    expect(errors).toEqual([]);
  });

  it("gives a viewer the console's reads and refuses their changes", async () => {
    const page = await open();
    await signIn(page, "carol");
    await page.getByText("carol@example.com").waitFor();
    await page.getByRole("link", { name: "08:00:27:27:eb:12" }).first().waitFor();
    const change = await page.evaluate(async () => {
      const response = await fetch("/api/1.1/nodes/none", {
        method: "PATCH",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "x" }),
      });
      return response.status;
    });
    expect(change).toBe(403);
  });
});
