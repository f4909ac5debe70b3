import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { type Browser, chromium, type Dialog, type Page } from "playwright-core";
import { simulateBoot } from "../../scripts/nodeSimulator";
import { type OfflineServer, startOffline } from "../support/offlineServer";

jest.setTimeout(240_000);

/** Where the screenshots go (the README names it); the README's own is copied from here. */
const SCREENSHOTS = join(__dirname, "../../test-artifacts/console");
const CHROMIUM = "/usr/bin/chromium";
const MAC = "52:54:00:c0:50:01";
const LAPTOP = { width: 1280, height: 800 };

/**
 * The operator console in a real browser (Debian's Chromium, driven by playwright-core) against
 * the real `serverless offline`: a machine discovered by the node simulator appears, an install
 * started from the console's form runs as the simulator plays the machine, the DAG goes from
 * running to succeeded, a second workflow is cancelled, and the task list works. Any error in
 * the page's console fails the test.
 */
describe("the operator console in a real browser", () => {
  let server: OfflineServer;
  let browser: Browser;
  const errors: string[] = [];

  async function open(path: string, viewport = LAPTOP): Promise<Page> {
    const page = await browser.newPage({ viewport });
    page.on("console", (message) => message.type() === "error" && errors.push(`${page.url()}: ${message.text()}`));
    page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
    await page.goto(`${server.baseUrl}${path}`);
    return page;
  }
  const shoot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  /** axe-core's accessibility rules (WCAG A and AA and its best practices) on the page as it is now: no violation. */
  const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  async function accessible(page: Page): Promise<void> {
    await page.evaluate(AXE); // evaluate is not bound by the page's Content-Security-Policy
    const violations = await page.evaluate<{ id: string; targets: string[] }[]>(
      "axe.run(document).then((result) => result.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => String(n.target)) })))",
    );
    expect(violations).toEqual([]);
  }
  /** Nothing wider than the window: no sideways scrolling of the page itself. */
  const fitsWidth = (page: Page) => page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth");

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`The browser tier needs Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does).`);
    server = await startOffline({ DEMO_NODES: "off" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(() => {
    expect(errors).toEqual([]);
    errors.length = 0;
  });

  it("discovers a machine, installs it from the form, watches the DAG succeed, and cancels a second workflow", async () => {
    const page = await open("/console");
    await page.getByText("No machines yet").waitFor();

    expect((await simulateBoot({ server: server.baseUrl, macs: [MAC], pollMs: 100 })).outcome).toBe("discovered");
    await page.reload();
    // The list says first what an operator looks for: its state, where to reach it, whose it is, its power and site.
    expect((await page.getByRole("columnheader").allTextContents()).slice(0, 6)).toEqual([
      "Name",
      "State",
      "Address",
      "Owner",
      "Power",
      "Site",
    ]);
    const row = page.getByRole("row").filter({ hasText: MAC });
    expect(await row.getByRole("cell").allTextContents()).toEqual(expect.arrayContaining(["discovered", "—", "unknown", "none"]));
    await page.getByRole("link", { name: MAC }).click();
    await page.getByRole("heading", { name: MAC }).waitFor();
    // What its firmware said of Secure Boot (the simulator's machine is a BIOS one).
    await page.getByText("not offered by its firmware").waitFor();
    // How it boots: the network, until an operator sets it to virtual media (issue 53).
    await page.getByText("the network (PXE)").waitFor();
    // How to reach it: no installed system has reported its addresses yet; the lookup, with when it was seen.
    await page.getByText("Its installed system has not reported its addresses").waitFor();
    // Catalogs, collapsed and searchable.
    await page.getByText("dmi", { exact: true }).waitFor();
    await page.getByLabel("Search the catalogs").fill("Product Name");
    await page
      .getByText(/matching lines/)
      .first()
      .waitFor();
    expect(await page.locator("details[open] pre").first().textContent()).toContain("Product Name");
    await page.getByRole("button", { name: "Save OBM setting" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await accessible(page);
    await shoot(page, "machine");

    // Start an install from the form built from the graph's options (defaults filled in).
    await page.getByRole("link", { name: "Start a workflow" }).click();
    await page.getByLabel("Graph").selectOption("Graph.InstallCentOS");
    const version = page.locator('input[name="install-os.version"]');
    expect(await version.getAttribute("required")).not.toBeNull();
    expect(await page.locator('input[name="install-os.installScript"]').inputValue()).toBe("centos-ks");
    expect(await page.locator('input[name="install-os.rootPassword"]').getAttribute("type")).toBe("password");
    await version.fill("7");
    await accessible(page);
    await page.getByRole("button", { name: "Start" }).click();
    await page.waitForURL(/#\/workflows\//);
    await page.locator('[data-label="install-os"][data-state="running"]').waitFor();
    await page.getByText("Waiting for the machine to network-boot").waitFor();
    await shoot(page, "workflow-running");

    // The machine boots its install: the DAG follows (polling) to succeeded.
    expect((await simulateBoot({ server: server.baseUrl, macs: [MAC] })).outcome).toBe("installed");
    await page.locator('[data-label="install-os"][data-state="succeeded"]').waitFor({ timeout: 20_000 });
    await page.getByText("every task succeeded").waitFor();
    await page.locator('[data-label="install-os"]').focus();
    await page.keyboard.press("Enter");
    await page.getByText("Install script fetched").waitFor();
    expect(await page.locator(".task-details").textContent()).toContain("it reported its install complete");
    expect(await page.locator(".task-details pre").textContent()).not.toContain("RackHDRocks!");
    await accessible(page);
    await shoot(page, "workflow");

    // A second workflow, cancelled from its view.
    await page.getByRole("link", { name: /^[0-9a-f]{24}$/ }).click();
    await page.getByRole("link", { name: "Start a workflow" }).click();
    await page.getByLabel("Graph").selectOption("Graph.InstallUbuntu");
    await page.getByRole("button", { name: "Start" }).click();
    await page.waitForURL(/#\/workflows\//);
    await page.getByRole("button", { name: "Cancel workflow" }).click();
    await page.locator(".card-head .state-cancelled").waitFor();
    await page.getByText(/was cancelled at/).waitFor();
    await shoot(page, "workflow-cancelled");

    await page.goto(`${server.baseUrl}/console#/machines`);
    await page.getByRole("link", { name: MAC }).waitFor();
    await accessible(page);
    await shoot(page, "machines");
    await page.close();
  });

  it("shows why an install failed: the reason, what the machine did, and its log (issue 26)", async () => {
    const api = (method: string, path: string, body?: unknown, type = "application/json") =>
      fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { "content-type": type },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
    const mac = "52:54:00:c0:50:26";
    const node = (
      (await (
        await api("POST", "/api/1.1/nodes", {
          name: "imaged-9",
          identifiers: [mac],
          obmSettings: [{ service: "noop-obm-service", config: {} }],
        })
      ).json()) as { id: string }
    ).id;
    const workflow = (await (
      await api("POST", `/api/1.1/nodes/${node}/workflows`, {
        name: "Graph.InstallImage",
        options: { "install-os": { image: "debian-12.raw.gz" } },
      })
    ).json()) as { instanceId: string };
    // The machine: boots its profile, fetches its install script, uploads its log, reports the failure.
    const profile = await (await fetch(`${server.baseUrl}/api/current/profiles?macs=${mac}`)).text();
    const script = await (await fetch(/INSTALL_SCRIPT=(\S+)/.exec(profile)![1])).text();
    const reportUrl = new URL(/^REPORT_URL='([^']+)'/m.exec(script)![1]).pathname;
    expect(
      (await api("POST", `${reportUrl}/logs/installer?seq=1`, "dd: error writing '/dev/vda': No space left on device\n", "text/plain"))
        .status,
    ).toBe(201);
    await api("POST", reportUrl, {
      event_type: "finish",
      name: "install",
      result: "FAIL",
      description: "could not write debian-12.raw.gz to /dev/vda",
    });
    const page = await open(`/console#/workflows/${workflow.instanceId}`);
    await page.getByText("Reason: installer-failed.").waitFor();
    await page.getByRole("heading", { name: "What the machine did" }).waitFor();
    await page.getByText("finish install FAIL").waitFor();
    await page.getByRole("button", { name: "installer" }).click();
    // The log is fetched when its button is pressed: wait for it (its text says "Loading…" first).
    await page.getByLabel("Log installer").getByText("No space left on device").waitFor();
    expect(await page.getByLabel("Log installer").textContent()).toContain("No space left on device");
    await accessible(page);
    await shoot(page, "workflow-failed-install");
    await page.close();
    // The machine goes, so the fleet below counts what it counted before.
    expect((await api("DELETE", `/api/1.1/nodes/${node}`)).status).toBe(200);
  });

  it("defines a SKU by a rule on the catalogs; the machine list then shows it", async () => {
    const page = await open("/console#/define");
    const form = page.getByRole("form", { name: "Define a SKU" });
    await form.getByLabel("Name").fill("VirtualBox guests");
    await form.getByLabel("Catalog path").fill("dmi.System Information.Product Name");
    await form.getByLabel("equals").fill("VirtualBox");
    await form.getByRole("button", { name: "Define" }).click();
    await form.getByRole("status").filter({ hasText: "SKU VirtualBox guests defined" }).waitFor();
    await accessible(page);
    await page.getByRole("link", { name: "Machines" }).click();
    await page.getByRole("row").filter({ hasText: MAC }).getByText("VirtualBox guests").waitFor();
    await page.getByLabel("Search").fill("virtualbox guests");
    expect(await page.getByRole("row").count()).toBe(2); // the header and the machine

    // Listed with its rule, and deleted from there.
    await page.getByRole("link", { name: "SKUs & tags" }).click();
    await page.getByText('dmi.System Information.Product Name equals "VirtualBox"').waitFor();
    await page.getByRole("button", { name: "Delete VirtualBox guests" }).click();
    await page.getByRole("button", { name: "Delete VirtualBox guests" }).waitFor({ state: "detached" });
    await page.close();
  });

  it("keeps a task list: add, mark done, edit, delete", async () => {
    const page = await open("/console#/tasks");
    await page.getByRole("form", { name: "Add a task" }).getByLabel("Title").fill("Rack the new servers");
    await page.getByRole("form", { name: "Add a task" }).getByLabel("Description").fill("Row 4");
    await page.getByRole("button", { name: "Add" }).click();
    const row = page.locator(".tasks li").filter({ hasText: "Rack the new servers" });
    await row.getByRole("checkbox").click();
    await page.locator(".tasks li.done").filter({ hasText: "Rack the new servers" }).waitFor();
    await row.getByRole("button", { name: "Edit Rack the new servers" }).click();
    await page.locator(".tasks li form").getByLabel("Title").fill("Rack and cable the new servers");
    await page.getByRole("button", { name: "Save" }).click();
    await page.locator(".tasks li").filter({ hasText: "Rack and cable the new servers" }).waitFor();
    await accessible(page);
    await shoot(page, "tasks");
    await page.getByRole("button", { name: "Delete Rack and cable the new servers" }).click();
    await page.getByText("Rack and cable the new servers").waitFor({ state: "detached" });
    await page.close();
  });

  it("pages through thousands of machines, and finds one by search", async () => {
    const macOf = (n: number) =>
      `02:00:00:00:${((n >> 8) & 0xff).toString(16).padStart(2, "0")}:${(n & 0xff).toString(16).padStart(2, "0")}`;
    const create = (n: number) =>
      fetch(`${server.baseUrl}/api/1.1/nodes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: `rack-${n}`, identifiers: [macOf(n)] }),
      }).then((answer) => expect(answer.status).toBe(201));
    const FLEET = 1500;
    for (let first = 0; first < FLEET; first += 50) await Promise.all(Array.from({ length: 50 }, (_, i) => create(first + i)));

    const page = await open("/console#/machines");
    await page.getByText(`1–50 of ${FLEET + 1}`).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText(`51–100 of ${FLEET + 1}`).waitFor();
    await page.getByLabel("Search").fill("rack-1499");
    await page.getByText("1–1 of 1").waitFor();
    await page.getByRole("link", { name: "rack-1499" }).waitFor();
    await page.close();
  });

  it("fits a phone and a laptop screen without sideways scrolling", async () => {
    for (const viewport of [LAPTOP, { width: 390, height: 844 }]) {
      const page = await open("/console#/machines", viewport);
      await page.getByRole("link", { name: MAC }).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await page.getByRole("link", { name: MAC }).click();
      await page.getByRole("heading", { name: MAC }).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      if (viewport.width < 800) await shoot(page, "machine-phone");
      await page.close();
    }
  });

  it("creates a site and a relay credential (its token shown once), and asks before a power action", async () => {
    const page = await open("/console#/sites");
    await page.getByLabel("New site").fill("rack-room-1");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "rack-room-1" }).waitFor();
    await page.getByRole("button", { name: "New relay credential" }).click();
    const shown = await page.getByRole("status").filter({ hasText: "shown this once" }).textContent();
    expect(shown).toMatch(/[0-9a-f]{24}\.[\w-]{43}/);
    await page.getByRole("cell", { name: "never" }).waitFor();
    await accessible(page);

    // A machine of the site with an IPMI BMC: its page offers power, and asks first.
    const call = (method: string, path: string, body: unknown): Promise<any> =>
      fetch(`${server.baseUrl}/api/1.1${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const site = (await call("GET", "/sites", undefined).catch(() => [])) as { id: string }[];
    const node = await call("POST", "/nodes", { name: "bmc-machine", identifiers: ["52:54:00:5e:00:01"] });
    await call("POST", `/nodes/${node.id}/obm`, {
      service: "ipmi-obm-service",
      config: { host: "10.0.0.9", user: "admin", password: "x" },
    });
    await call("PUT", `/nodes/${node.id}/site`, { site: site[0].id });
    await page.goto(`${server.baseUrl}/console#/machines/${node.id}`);
    await page.getByText("Power: unknown").waitFor();
    // The OBM form shows the stored setting, never its secret (issue 50: it showed the defaults);
    // saved with the password left blank, the stored password stays.
    await page.locator('input[name="host"]').waitFor();
    expect(await page.locator('input[name="host"]').inputValue()).toBe("10.0.0.9");
    expect(await page.locator('input[name="user"]').inputValue()).toBe("admin");
    expect(await page.locator('input[name="password"]').inputValue()).toBe("");
    expect(await page.locator('input[name="password"]').getAttribute("placeholder")).toMatch(/^stored \(not shown\)/);
    await page.getByRole("button", { name: "Save OBM setting" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect((await call("GET", `/nodes/${node.id}/obm`, undefined))[0].config).toEqual({
      host: "10.0.0.9",
      user: "admin",
      password: "REDACTED",
    });
    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.getByRole("button", { name: "Power off" }).click();
    expect(await page.getByRole("list", { name: "Recent power jobs" }).count()).toBe(0);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Power on" }).click();
    await page.getByRole("list", { name: "Recent power jobs" }).getByText("power on").waitFor();
    await accessible(page);
    await shoot(page, "machine-power");
    await page.close();
  });

  it("shows a machine's life and runs the actions its state allows: a destructive one only once its name is typed (issue 53)", async () => {
    // A machine discovered by the simulator (its catalogs), with the noop OBM service.
    const mac = "52:54:00:53:0c:01";
    await simulateBoot({ server: server.baseUrl, macs: [mac], pollMs: 200 });
    const call = (method: string, path: string, body?: unknown): Promise<any> =>
      fetch(`${server.baseUrl}/api/1.1${path}`, {
        method,
        headers: { "content-type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }).then((r) => r.json());
    const node = await call("PATCH", `/nodes/${mac}`, { obmSettings: [{ service: "noop-obm-service", config: {} }] });
    const page = await open(`/console#/machines/${node.id}`);
    const section = page.locator("section", { has: page.getByRole("heading", { name: "Life cycle" }) });
    await section.getByText("discovered").waitFor();
    page.once("dialog", (dialog) => void dialog.accept());
    await section.getByRole("button", { name: "provide" }).click();
    await section.getByText("ready", { exact: true }).waitFor();
    // allocate asks for its owner and purpose, then to confirm.
    const answers = ["team-a", "CI runners"];
    const handle = (dialog: Dialog) => void (dialog.type() === "prompt" ? dialog.accept(answers.shift()) : dialog.accept());
    page.on("dialog", handle);
    await section.getByRole("button", { name: "allocate" }).click();
    await section.getByText("team-a").waitFor();
    page.off("dialog", handle);
    // release is destructive: the wrong name stops it; the machine's name runs it.
    const typed = ["quick", "not-its-name"];
    const typing = (dialog: Dialog) => void dialog.accept(typed.shift());
    page.on("dialog", typing);
    await section.getByRole("button", { name: "release" }).click();
    for (const end = Date.now() + 10_000; typed.length > 0 && Date.now() < end; ) await page.waitForTimeout(100);
    expect(typed).toEqual([]);
    expect((await call("GET", `/nodes/${node.id}`)).provisionState).toBe("allocated");
    typed.push("quick", node.name);
    await section.getByRole("button", { name: "release" }).click();
    await section.getByText("releasing").waitFor();
    page.off("dialog", typing);
    await accessible(page);
    await shoot(page, "machine-lifecycle");
    await page.close();
  });

  it("adds a web hook (its secret shown once), sends it a test, lists its deliveries; a machine's page shows its events (issue 27)", async () => {
    // A receiver on this machine: it answers every delivery 200.
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        received.push(body);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/events`;
      const page = await open("/console#/hooks");
      await page.getByLabel("URL").fill(url);
      await page.getByLabel("Events").fill("node.*");
      await page.getByRole("button", { name: "Add" }).click();
      const shown = await page.getByRole("status").filter({ hasText: "shown this once" }).textContent();
      expect(shown).toMatch(/whsec_[A-Za-z0-9+/]{43}=/);
      await page.getByRole("heading", { name: url }).waitFor();
      await page.getByRole("button", { name: "Send a test" }).click();
      await page
        .getByRole("table", { name: `Deliveries to ${url}` })
        .getByRole("cell", { name: "hook.test" })
        .waitFor();
      expect(JSON.parse(received[0])).toMatchObject({ type: "hook", action: "test" });
      await accessible(page);
      await shoot(page, "hooks");

      // A machine made now: the hook receives node.added, and the machine's page lists it.
      const node = await fetch(`${server.baseUrl}/api/1.1/nodes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "evented" }),
      }).then((answer) => answer.json() as Promise<{ id: string }>);
      await page.goto(`${server.baseUrl}/console#/machines/${node.id}`);
      await page.getByRole("table", { name: "Events" }).getByRole("cell", { name: "node.added" }).waitFor();
      await accessible(page);
      for (let tries = 0; tries < 50 && !received.some((body) => body.includes('"added"')); tries++)
        await new Promise((r) => setTimeout(r, 100));
      expect(received.map((body) => JSON.parse(body).action)).toContain("added");
      await page.close();
    } finally {
      receiver.close();
    }
  });
});

describe("the operator console with auth on", () => {
  let server: OfflineServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "on", PROVISIONING_AUTH: "on", TASKS_AUTH: "all", AUTH_USERS: "admin:s3cret" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("asks for credentials once per browser session, says so when they are refused, and sends them as the API expects", async () => {
    const page = await browser.newPage({ viewport: LAPTOP });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${server.baseUrl}/console`);
    const signIn = page.getByRole("dialog", { name: "Sign in" });
    await signIn.getByText("asks for a user name and password").waitFor();
    await signIn.getByLabel("User").fill("admin");
    await signIn.getByLabel("Password").fill("wrong");
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await signIn.getByText("Those credentials were refused").waitFor();
    await signIn.getByLabel("User").fill("admin");
    await signIn.getByLabel("Password").fill("s3cret");
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "08:00:27:27:eb:12" }).waitFor();
    // The session's credentials serve every page: no second prompt.
    await page.getByRole("link", { name: "Tasks" }).click();
    await page.getByRole("form", { name: "Add a task" }).waitFor();
    expect(await signIn.count()).toBe(0);
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, "signed-in.png") });
    await page.close();
  });
});
