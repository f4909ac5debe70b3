import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { CATCH_ALL, ROUTES } from "../../lib/http/routes";

const run = promisify(execFile);
const ROOT = join(__dirname, "../..");
jest.setTimeout(60_000);

/** What the Serverless CLI itself resolves from serverless.yml, for a store. */
async function printed(
  store: string,
  env: Record<string, string> = {},
): Promise<{ functions: Record<string, { handler: string; role: string; events: unknown[] }> }> {
  const { stdout } = await run(process.execPath, [join(ROOT, "node_modules/serverless/bin/serverless.js"), "print", "--format", "json"], {
    cwd: ROOT,
    env: { ...process.env, STORE: store, SLS_TELEMETRY_DISABLED: "1", SLS_NOTIFICATIONS_MODE: "off", ...env },
    maxBuffer: 16 << 20,
  });
  return JSON.parse(stdout);
}

describe("serverless print", () => {
  it.each([
    ["memory", { taskRead: "ApiFunctionRole", provisioningWrite: "ApiFunctionRole", noData: "ApiFunctionRole" }],
    ["dynamodb", { taskRead: "TaskReadRole", provisioningWrite: "ProvisioningWriteRole", noData: "NoDataRole" }],
  ])("resolves one function per registry entry, with its route and role (STORE=%s)", async (store, roles) => {
    const { functions } = await printed(store);
    expect(Object.keys(functions).sort()).toEqual([...ROUTES.map((route) => route.function), CATCH_ALL.function].sort());
    for (const route of ROUTES) {
      expect(functions[route.function].handler).toBe(`${route.handler}.handler`);
      expect(functions[route.function].events).toEqual([{ httpApi: { method: route.method, path: route.path } }]);
    }
    expect(functions[CATCH_ALL.function].events).toEqual([{ httpApi: "*" }]);
    for (const [access, role] of Object.entries(roles)) {
      const route = ROUTES.find((candidate) => candidate.access === access)!;
      expect(functions[route.function].role).toBe(role);
    }
  });

  it("refuses a bad setting before anything is packaged, naming it", async () => {
    const failure = await printed("memory", { TASKS_AUTH: "sometimes" }).then(
      () => undefined,
      (error: { stderr?: string; stdout?: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(failure).toMatch(/TASKS_AUTH must be one of off, list, all \(got "sometimes"\)/);
  });
});
