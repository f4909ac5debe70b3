import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { NESTED_TEMPLATE, ROUTE_STACKS, routesFile } from "../../deploy/nestedStacks";
import { SETTING_NAMES } from "../../lib/config/settings";
import { closesConnections, pushes, STORE_NAMES, type StoreName, withWriteEffects } from "../../lib/dataAccess";
import { CATCH_ALL, ROUTES } from "../../lib/http/routes";
import { accessOf } from "../../lib/http/routes/access";
import { methodsOf } from "../../lib/http/routes/endpoint";
import { SCHEDULED } from "../../lib/http/routes/scheduled";
import { SOCKET } from "../../lib/http/routes/socket";
import { TRIGGERED } from "../../lib/http/routes/triggered";
import { LEADING_KEYS } from "../../lib/store/dynamodb/iamPolicy";

const run = promisify(execFile);

type Resources = Record<string, { Type: string; Properties: Record<string, any>; Condition?: string; Metadata?: Record<string, string> }>;
interface Template {
  Resources: Resources;
  Outputs?: Record<string, { Value: unknown }>;
}

/** Every template of a packaged stack, by file name: the root's and the nested stacks' (deploy/nestedStacks.js). */
const STACK_FILES = [
  "cloudformation-template-update-stack.json",
  NESTED_TEMPLATE,
  ...Array.from({ length: ROUTE_STACKS }, (_, n) => routesFile(n + 1)),
];

/**
 * A packaged stack: the root template, the nested one that holds the functions' roles, the ones
 * that hold the HTTP API's routes and integrations, and all their resources together.
 */
function packagedStack(out: string): { root: Template; roles: Template; routes: Template[]; all: Resources } {
  const read = (name: string): Template => JSON.parse(readFileSync(join(out, name), "utf8"));
  const [root, roles, ...routes] = STACK_FILES.map(read);
  return { root, roles, routes, all: Object.assign({}, ...[root, roles, ...routes].map((template) => template.Resources)) };
}

/** The logical id, in the roles' stack, of a function resource's role (an output of that stack). */
const roleOf = (roles: Template, fn: { Properties: Record<string, any> }): string => {
  const [stack, output] = fn.Properties.Role["Fn::GetAtt"];
  expect(stack).toBe("FunctionRoles");
  return (roles.Outputs![output.replace(/^Outputs\./, "")].Value as { "Fn::GetAtt": string[] })["Fn::GetAtt"][0];
};

/** The test's environment with these settings: a value replaces, `undefined` removes one. */
/**
 * The Serverless CLI's packaging leaves a scratch folder per function in the temporary folder (136
 * a package, never removed): its runs here get a temporary folder of their own, removed at the end.
 */
const SCRATCH = mkdtempSync(join(tmpdir(), "serverless-scratch-"));
afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));
const envWith = (env: Record<string, string | undefined>): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries({ ...process.env, SLS_TELEMETRY_DISABLED: "1", SLS_NOTIFICATIONS_MODE: "off", TMPDIR: SCRATCH, ...env }).filter(
      ([, value]) => value !== undefined,
    ),
  );

/** `serverless package` of `stage` into `out` (its esbuild work folder there too), with these settings (envWith's rule). */
const packageStage = (stage: string, out: string, env: Record<string, string | undefined>) =>
  run(process.execPath, [join(ROOT, "node_modules/serverless/bin/serverless.js"), "package", "--stage", stage, "--package", out], {
    cwd: ROOT,
    env: envWith({ ESBUILD_WORK_FOLDER: join(out, ".esbuild"), ...env }),
    maxBuffer: 16 << 20,
  });
const ROOT = join(__dirname, "../..");

/** AWS's CloudFormation linter on templates: no line printed, exit 0. */
async function expectCfnLintClean(templates: string[]): Promise<void> {
  const lint = await run("cfn-lint", ["--format", "parseable", ...templates]).then(
    (result) => ({ code: 0, stdout: result.stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
  // cfn-lint's exit code is a bit mask: 2 errors, 4 warnings, 8 informational. None of any (issue 25).
  expect(lint.stdout.split("\n").filter((line) => line.trim() !== "")).toEqual([]);
  expect(lint.code).toBe(0);
}
jest.setTimeout(60_000);

/**
 * What the Serverless CLI itself resolves from serverless.yml, for a store. The same settings are
 * asked for once (a `serverless print` is about 6 s of CPU; the tests only read what it answers).
 */
const prints = new Map<string, ReturnType<typeof print>>();
function printed(...args: Parameters<typeof print>): ReturnType<typeof print> {
  const key = JSON.stringify(args);
  const asked = prints.get(key) ?? print(...args);
  prints.set(key, asked);
  return asked;
}

async function print(
  store: string,
  env: Record<string, string | undefined> = {},
  stage?: string,
): Promise<{
  functions: Record<string, { handler: string; role: unknown; events: unknown[] }>;
  custom: { esbuild: { outputWorkFolder: string; minify: boolean; skipRebuild: boolean; watch: { pattern: string[]; ignore: string[] } } };
  provider: { environment: Record<string, string>; timeout: number };
}> {
  const stageArgs = stage ? ["--stage", stage] : [];
  const { stdout } = await run(
    process.execPath,
    [join(ROOT, "node_modules/serverless/bin/serverless.js"), "print", "--format", "json", ...stageArgs],
    {
      cwd: ROOT,
      env: envWith({ STORE: store, ...env }),
      maxBuffer: 16 << 20,
    },
  );
  return JSON.parse(stdout);
}

describe("serverless print", () => {
  it.each(["memory", "dynamodb"] as const)(
    "resolves one function per registry entry, with its routes and role (STORE=%s)",
    async (store) => {
      const { functions } = await printed(store);
      // The triggered functions (the stream's and the delivery queue's) are DynamoDB's: memory has neither.
      const triggered = store === "dynamodb" ? TRIGGERED.map((entry) => entry.function) : [];
      // So are the WebSocket API's (the relays' push, issue 56): a memory stage's containers share no connections.
      const socket = store === "dynamodb" ? SOCKET.map((entry) => entry.function) : [];
      expect(Object.keys(functions).sort()).toEqual(
        [
          ...ROUTES.map((route) => route.function),
          CATCH_ALL.function,
          ...SCHEDULED.map((entry) => entry.function),
          ...triggered,
          ...socket,
        ].sort(),
      );
      if (store === "dynamodb") {
        expect(functions.relayConnect.events).toEqual([{ websocket: { route: "$connect" } }]);
        expect(functions.relayPing.events).toEqual([{ websocket: { route: "ping", routeResponseSelectionExpression: "$default" } }]);
      }
      for (const route of ROUTES) {
        expect(functions[route.function].handler).toBe(`${route.handler}.handler`);
        expect(functions[route.function].events).toEqual(methodsOf(route).map((method) => ({ httpApi: { method, path: route.path } })));
      }
      // The completion signal (`wget --spider`) is a HEAD: API Gateway routes it to the template's function.
      expect(functions.nodeTemplate.events).toContainEqual({ httpApi: { method: "HEAD", path: "/api/{version}/templates/{name}" } });
      expect(functions[CATCH_ALL.function].events).toEqual([{ httpApi: "*" }]);
      for (const entry of SCHEDULED) expect(functions[entry.function].events).toEqual([{ schedule: entry.rate }]);
      const roles = new Set(Object.values(functions).map((fn) => JSON.stringify(fn.role)));
      // Memory: a role per access class (issue 35 §12): a booting machine's route cannot read the user list.
      if (store === "memory") {
        expect([...roles].sort()).toEqual(
          ["ApiFunctionRole", "DeadLettersRole", "UserListRole"].map((role) => JSON.stringify({ "Fn::Sub": `\${${role}.Arn}` })),
        );
        // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
        expect(functions.bootProfile.role).toEqual({ "Fn::Sub": "${ApiFunctionRole.Arn}" });
        // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
        expect(functions.listNodes.role).toEqual({ "Fn::Sub": "${UserListRole.Arn}" });
      }
      // One role per distinct set of needs: the catch-all's is the one that touches nothing.
      // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
      else expect(functions[CATCH_ALL.function].role).toEqual({ "Fn::Sub": "${NoDataRole.Arn}" });
      if (store === "dynamodb") expect(roles.size).toBeGreaterThan(40);
    },
  );

  it("passes every setting to the functions, from the deploying shell's environment (appendix of issue 23: FILE_SERVER, DISCOVERY_GRAPH)", async () => {
    const { provider } = await printed("memory", { FILE_SERVER: "http://files.example:9090", DISCOVERY_GRAPH: "off" });
    expect(Object.keys(provider.environment)).toEqual(expect.arrayContaining([...SETTING_NAMES]));
    expect(provider.environment).toMatchObject({ FILE_SERVER: "http://files.example:9090", DISCOVERY_GRAPH: "off" });
  });

  it("builds the local stage as one unminified bundle, in process and in worker-thread mode, and a deployment a bundle per function (issue 36)", async () => {
    const [local, workers, prod] = await Promise.all([
      printed("dynamodb", {}, "local"),
      printed("dynamodb", { OFFLINE_IN_PROCESS: "false" }, "local"),
      printed("dynamodb", { AUTH_USERS_PARAMETER: "/x/users" }, "prod"),
    ]);
    for (const [name, fn] of Object.entries(local.functions)) expect(fn.handler).toBe(`.local-bundle/dynamodb.${name}`);
    expect(local.custom.esbuild).toMatchObject({ minify: false, skipRebuild: false });
    // A server builds again for a changed source, never for another server's bundles in its work folder.
    expect(local.custom.esbuild.watch.pattern).toEqual(expect.arrayContaining(["handlers/**/*.ts", "lib/**/*.ts"]));
    expect(local.custom.esbuild.watch.ignore).toEqual(expect.arrayContaining([".esbuild*", ".local-bundle"]));
    expect(readFileSync(join(ROOT, ".local-bundle/dynamodb.ts"), "utf8")).toContain(
      'export const listNodes = (...args: unknown[]) => require("../handlers/provisioning/nodes/list").handler(...args);',
    );
    expect(workers.functions.listNodes.handler).toBe(".local-bundle/dynamodb.listNodes");
    expect(workers.custom.esbuild).toMatchObject({ minify: false, skipRebuild: false });
    expect(prod.functions.listNodes.handler).toBe("handlers/provisioning/nodes/list.handler");
    expect(prod.custom.esbuild).toMatchObject({ minify: true, skipRebuild: true });
    // Locally a function's start counts in its time-out (serverless offline), so it gets Lambda's
    // init budget on top; the service's own budgets are cut from the same 10 s everywhere.
    expect([local.provider.timeout, Number(local.provider.environment.FUNCTION_TIMEOUT_SECONDS)]).toEqual([20, 10]);
    expect([prod.provider.timeout, Number(prod.provider.environment.FUNCTION_TIMEOUT_SECONDS)]).toEqual([10, 10]);
  });

  it("builds each store's bundles in a folder of its own, so both local modes run from one checkout", async () => {
    expect(process.env.ESBUILD_WORK_FOLDER).toBeUndefined();
    const [memory, dynamodb] = await Promise.all([printed("memory"), printed("dynamodb")]);
    expect(memory.custom.esbuild.outputWorkFolder).toBe(".esbuild-memory");
    expect(dynamodb.custom.esbuild.outputWorkFolder).toBe(".esbuild-dynamodb");
  });

  it("gives a deployed stage the operators' auth and no CORS by default, and the local stage RackHD's open defaults (issue 25)", async () => {
    const bare = { PROVISIONING_AUTH: undefined, CORS_ORIGINS: undefined, BOOT_VIA_RELAY: undefined };
    const [prod, local] = await Promise.all([printed("memory", bare, "prod"), printed("memory", bare, "local")]);
    expect(prod.provider.environment).toMatchObject({ PROVISIONING_AUTH: "on", CORS_ORIGINS: "none", BOOT_VIA_RELAY: "on" });
    expect(local.provider.environment).toMatchObject({ PROVISIONING_AUTH: "off", CORS_ORIGINS: "*", BOOT_VIA_RELAY: "off" });
  });

  it("refuses to package a deployed stage with no users, or an open one not said loudly, naming the setting (issue 25)", async () => {
    const packaging = (env: Record<string, string | undefined>) =>
      run(process.execPath, [join(ROOT, "node_modules/serverless/bin/serverless.js"), "package", "--stage", "prod"], {
        cwd: ROOT,
        env: envWith({ STORE: "memory", ...env }),
        maxBuffer: 16 << 20,
      }).then(
        () => "packaged",
        (error: { stderr?: string; stdout?: string }) => `${error.stdout}${error.stderr}`,
      );
    const [noUsers, open, openBoot] = await Promise.all([
      packaging({ PROVISIONING_AUTH: undefined, AUTH_USERS: undefined, AUTH_USERS_PARAMETER: undefined }),
      packaging({ PROVISIONING_AUTH: "off", ALLOW_OPEN_PROVISIONING: undefined }),
      packaging({ BOOT_VIA_RELAY: "off", ALLOW_OPEN_BOOT: undefined, AUTH_USERS_PARAMETER: "/svc/prod/users" }),
    ]);
    // Issue 35 §2: the boot path of a deployed stage is closed unless the deploying shell opens it loudly.
    expect(openBoot).toMatch(/BOOT_VIA_RELAY=off would let anyone on the internet who knows a MAC .* ALLOW_OPEN_BOOT=yes/);
    expect(noUsers).toMatch(/Stage "prod" asks for credentials \(PROVISIONING_AUTH=on\) but has no users: set AUTH_USERS_PARAMETER/);
    expect(open).toMatch(/PROVISIONING_AUTH=off would let anyone on the internet create nodes .* ALLOW_OPEN_PROVISIONING=yes/);
  });

  it("refuses a bad setting before anything is packaged, naming it", async () => {
    const failure = await printed("memory", { TASKS_AUTH: "sometimes" }).then(
      () => undefined,
      (error: { stderr?: string; stdout?: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(failure).toMatch(/TASKS_AUTH must be one of off, list, all \(got "sometimes"\)/);
  });
});

/**
 * `serverless package` for a stage that is not the local one, with each store, as a deployment
 * makes it; then AWS's CloudFormation linter (cfn-lint, which .ci/run installs) on the template.
 */
describe.each(["memory", "dynamodb"])("serverless package (STORE=%s)", (store) => {
  const out = mkdtempSync(join(tmpdir(), `package-${store}-`));
  let template: Template;
  let roles: Template;
  let routes: Template[];
  /** Every stack's resources together. */
  let all: Resources;
  beforeAll(async () => {
    // A deployment's defaults: none of the test run's quiet settings.
    await packageStage("prod", out, {
      STORE: store,
      AUTH_USERS_PARAMETER: "/lambda-tasks-provisioning/prod/auth-users",
      LOG_REQUESTS: undefined,
      METRICS: undefined,
      // The memory store's templates without its code: its bundles differ from the DynamoDB
      // store's only in their store adapter, and the bench's smoke run (bench-smoke tier) builds
      // every function's bundle for both stores as serverless-esbuild does and starts each.
      // About a minute of CPU less in the whole run.
      PACKAGE_TEMPLATES_ONLY: store === "memory" ? "on" : undefined,
    });
    ({ root: template, roles, routes, all } = packagedStack(out));
  }, 240_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("throttles the HTTP API, writes access logs, and lets the functions read only the user-list parameter", () => {
    const stage = template.Resources.HttpApiStage.Properties;
    expect(stage.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: "100", ThrottlingBurstLimit: "200" });
    expect(stage.AccessLogSettings.DestinationArn).toEqual({ "Fn::GetAtt": ["HttpApiLogGroup", "Arn"] });
    const access = all.AuthUsersParameterAccess;
    expect(JSON.stringify(access.Properties.PolicyDocument)).toContain("parameter/lambda-tasks-provisioning/prod/auth-users");
    // Only the roles of functions that ask for credentials read it: never a booting machine's route's (issue 35 §12).
    // A function's role is an output of the roles' nested stack: `Outputs.<role>Arn`.
    const roleName = (fn: string) => /Outputs\.(\w+?)Arn/.exec(JSON.stringify(template.Resources[fn].Properties.Role))![1];
    expect(access.Properties.Roles).toContainEqual({ Ref: roleName("ListNodesLambdaFunction") });
    expect(access.Properties.Roles).not.toContainEqual({ Ref: roleName("BootProfileLambdaFunction") });
    const fn = Object.values(template.Resources).find((resource) => resource.Type === "AWS::Lambda::Function")!;
    expect(fn.Properties.Environment.Variables).toMatchObject({
      AUTH_USERS: "",
      AUTH_USERS_PARAMETER: "/lambda-tasks-provisioning/prod/auth-users",
    });
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe("--enable-source-maps");
  });

  it("throttles the relays' WebSocket API, logs each of its connects and messages, and holds its functions to a concurrency of their own", () => {
    const socketStage = Object.entries(all).find(
      ([, resource]) => resource.Type === "AWS::ApiGatewayV2::Stage" && resource.Properties.ApiId?.Ref === "WebsocketsApi",
    );
    if (store === "memory") {
      expect(socketStage).toBeUndefined();
      return;
    }
    expect(socketStage?.[1].Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: "20", ThrottlingBurstLimit: "40" });
    expect(socketStage?.[1].Properties.AccessLogSettings.DestinationArn).toEqual({ "Fn::GetAtt": ["WebsocketsAccessLogGroup", "Arn"] });
    expect(JSON.parse(socketStage?.[1].Properties.AccessLogSettings.Format)).toMatchObject({
      eventType: "$context.eventType",
      status: "$context.status",
    });
    expect(all.WebsocketsAccessLogGroup.Properties.RetentionInDays).toBe(14);
    const fns = Object.entries(all).filter(([, resource]) => resource.Type === "AWS::Lambda::Function");
    const concurrency = (name: string) => fns.find(([id]) => id === `${name}LambdaFunction`)?.[1].Properties.ReservedConcurrentExecutions;
    for (const name of ["RelayConnect", "RelayDisconnect", "RelayPing"]) expect(concurrency(name)).toBe(10);
    expect(concurrency("ListNodes")).toBeUndefined();
  });

  it("has the HTTP API call the functions through one role of its own, not a permission per function", () => {
    // The WebSocket API's integrations (the relays' push) call their functions through a permission each.
    const integrations = Object.entries(all).filter(
      ([id, resource]) => resource.Type === "AWS::ApiGatewayV2::Integration" && !id.endsWith("WebsocketsIntegration"),
    );
    expect(integrations.length).toBe(ROUTES.length + 1);
    // In a routes' stack, the role's ARN is a parameter the root gives from HttpApiInvokeRole.
    for (const [, integration] of integrations) expect(integration.Properties.CredentialsArn).toEqual({ Ref: "HttpApiInvokeRoleArn" });
    for (const n of routes.keys()) {
      expect(template.Resources[`HttpRoutes${n + 1}`].Properties.Parameters.HttpApiInvokeRoleArn).toEqual({
        "Fn::GetAtt": ["HttpApiInvokeRole", "Arn"],
      });
    }
    const permissions = Object.values(template.Resources).filter((resource) => resource.Type === "AWS::Lambda::Permission");
    expect(permissions.map((permission) => permission.Properties.Principal).sort()).toEqual(
      [
        ...(store === "dynamodb" ? SOCKET : []).map(() => "apigateway.amazonaws.com"),
        ...SCHEDULED.map(() => "events.amazonaws.com"),
      ].sort(),
    );
    const invoke = JSON.stringify(template.Resources.HttpApiInvokeRole.Properties);
    expect(invoke).toContain("apigateway.amazonaws.com");
    expect(invoke).toContain("function:lambda-tasks-provisioning-prod-*");
  });

  it("keeps every stack under 400 resources: the root holds the functions, nested stacks their roles and their routes (issue 36)", () => {
    const functions = Object.values(template.Resources).filter((resource) => resource.Type === "AWS::Lambda::Function");
    expect(functions.length).toBe(Object.keys(all).filter((id) => all[id].Type === "AWS::Lambda::Function").length);
    // The root: a function an endpoint, plus what they share (the WebSocket API's API, stage, deployment, permissions and access log among them).
    expect(Object.keys(template.Resources).length).toBeLessThan(functions.length + 41 + SOCKET.length);
    for (const stack of [template, roles, ...routes]) expect(Object.keys(stack.Resources).length).toBeLessThan(400);
    // The routes in the nested stacks (the ping's route response, which names its route, may stay).
    expect(Object.values(template.Resources).filter((resource) => resource.Type === "AWS::ApiGatewayV2::Route")).toEqual([]);
    // An integration and the routes that target it share a stack; every route has its integration there.
    for (const stack of routes) {
      for (const route of Object.values(stack.Resources).filter((resource) => resource.Type === "AWS::ApiGatewayV2::Route")) {
        const integration = route.Properties.Target["Fn::Join"][1][1].Ref;
        expect(stack.Resources[integration].Type).toBe("AWS::ApiGatewayV2::Integration");
      }
    }
  });

  it("keeps the functions' roles in one nested stack, fed the root's resources it needs", () => {
    const nested = template.Resources.FunctionRoles;
    expect(nested.Type).toBe("AWS::CloudFormation::Stack");
    expect(JSON.stringify(nested.Properties.TemplateURL)).toContain(NESTED_TEMPLATE);
    // Every parameter the roles take is given, by a reference to the root's resource.
    expect(Object.keys(nested.Properties.Parameters).sort()).toEqual(Object.keys((roles as any).Parameters).sort());
    expect(nested.Metadata?.TemplateSha256).toMatch(/^[0-9a-f]{64}$/);
    const functions = Object.values(template.Resources).filter((resource) => resource.Type === "AWS::Lambda::Function");
    for (const fn of functions) expect(roles.Resources[roleOf(roles, fn)].Type).toBe("AWS::IAM::Role");
    expect(Object.values(template.Resources).filter((resource) => resource.Type === "AWS::IAM::Role").length).toBe(1); // the HTTP API's
  });

  if (store === "dynamodb") {
    // The code is packaged for the DynamoDB store only (the memory store's templates: above).
    it("ships each bundle with its source map", async () => {
      const zips = readdirSync(out).filter((name) => name.endsWith(".zip"));
      expect(zips.length).toBe(ROUTES.length + 1 + SCHEDULED.length + TRIGGERED.length + SOCKET.length);
      const { stdout } = await run("unzip", ["-Z1", join(out, "createTask.zip")]);
      expect(stdout.split("\n").sort()).toEqual(["", "handlers/tasks/create.js", "handlers/tasks/create.js.map"]);
      // The console's browser bundle is in its asset function only; the page function holds its names
      // (a text of the console's own script is in the one, not the other).
      const script = async (zip: string, file: string) =>
        (await run("unzip", ["-p", join(out, zip), file], { maxBuffer: 64 << 20 })).stdout;
      const SCRIPT_TEXT = "Sign in with your company account";
      expect(await script("consoleAsset.zip", "handlers/console/asset.js")).toContain(SCRIPT_TEXT);
      expect(await script("consolePage.zip", "handlers/console/page.js")).not.toContain(SCRIPT_TEXT);
      expect(statSync(join(out, "consolePage.zip")).size).toBeLessThan(statSync(join(out, "consoleAsset.zip")).size);
    });

    /** What a function's role allows, as "action key" pairs (DynamoDB) and S3 actions. */
    const allowed = (functionName: string): Set<string> => {
      const logicalId = Object.keys(template.Resources).find(
        (id) =>
          template.Resources[id].Type === "AWS::Lambda::Function" &&
          template.Resources[id].Properties.FunctionName.endsWith(`-${functionName}`),
      )!;
      const role = roles.Resources[roleOf(roles, template.Resources[logicalId])];
      const statements = (role.Properties.Policies ?? []).flatMap((policy: any) => policy.PolicyDocument.Statement);
      const pairs = new Set<string>();
      for (const statement of statements) {
        const keys: string[] = statement.Condition?.["ForAllValues:StringLike"]?.["dynamodb:LeadingKeys"] ?? ["*"];
        // S3 actions by the prefix they reach (`files/*`, `install-logs/*`).
        const prefixes: string[] = (statement.Resource ?? []).map((resource: any) =>
          String(resource["Fn::Sub"] ?? resource)
            .split("/")
            .slice(1)
            .join("/"),
        );
        for (const action of statement.Action)
          for (const key of action.startsWith("dynamodb:") ? keys : action.startsWith("s3:") ? prefixes : [""])
            pairs.add(`${action} ${key}`.trim());
      }
      return pairs;
    };
    /** What an entry's declaration needs, worked out here from the table's keys. */
    const needed = (access: ReturnType<typeof accessOf>): Set<string> => {
      const pairs = new Set<string>();
      const keys = (stores: readonly StoreName[] = []) => stores.flatMap((store) => LEADING_KEYS[store]);
      for (const key of keys([...(access.read ?? []), ...(access.write ?? [])]))
        for (const action of ["GetItem", "Query", "BatchGetItem"]) pairs.add(`dynamodb:${action} ${key}`);
      for (const key of keys(access.write))
        for (const action of ["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "ConditionCheckItem"])
          pairs.add(`dynamodb:${action} ${key}`);
      const bytes = {
        read: ["s3:GetObject"],
        write: ["s3:GetObject", "s3:PutObject"],
        delete: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
      };
      for (const action of access.fileBytes ? bytes[access.fileBytes] : []) pairs.add(`${action} files/*`);
      for (const action of access.logBytes ? bytes[access.logBytes] : []) pairs.add(`${action} install-logs/*`);
      // A function that makes relay jobs posts to the relays' push connections (issue 56).
      if (pushes(access)) pairs.add("execute-api:ManageConnections");
      return pairs;
    };

    it("gives each function a role that allows what its registry entry declares and nothing more (issue 25)", () => {
      // An HTTP route that writes the relays' connections closes them at API Gateway (a revoked credential's).
      const neededByRoute = (route: (typeof ROUTES)[number]) => {
        const pairs = needed(accessOf(route));
        if (closesConnections(route.data)) pairs.add("execute-api:ManageConnections");
        return pairs;
      };
      for (const route of ROUTES)
        expect([route.function, [...allowed(route.function)].sort()]).toEqual([route.function, [...neededByRoute(route)].sort()]);
      // A scheduled function sends its failed runs to the dead-letter queue, too.
      for (const entry of SCHEDULED)
        expect([...allowed(entry.function)].sort()).toEqual([...needed(withWriteEffects(entry.data)), "sqs:SendMessage"].sort());
      // The WebSocket API's functions: their data only (they make no job, so they post to no connection).
      for (const entry of SOCKET) expect([...allowed(entry.function)].sort()).toEqual([...needed(withWriteEffects(entry.data))].sort());
      // The stream's function reads the stream, puts on the bus, sends to the delivery queue (and its failures to their dead letters);
      // the queue's function consumes the queue (and sends a retry to it).
      const [publish, deliver] = TRIGGERED;
      expect([...allowed(publish.function)].sort()).toEqual(
        [
          ...needed(withWriteEffects(publish.data)),
          "dynamodb:DescribeStream *",
          "dynamodb:GetRecords *",
          "dynamodb:GetShardIterator *",
          "dynamodb:ListStreams *",
          "events:PutEvents",
          "sqs:SendMessage",
        ].sort(),
      );
      expect([...allowed(deliver.function)].sort()).toEqual(
        [
          ...needed(withWriteEffects(deliver.data)),
          "sqs:ChangeMessageVisibility",
          "sqs:DeleteMessage",
          "sqs:GetQueueAttributes",
          "sqs:ReceiveMessage",
          "sqs:SendMessage",
        ].sort(),
      );
      expect(allowed(CATCH_ALL.function).size).toBe(0);
    });

    it("keeps a booting machine's routes from deleting files or writing templates, and the bucket to the file routes", () => {
      const boot = ROUTES.filter((route) => route.auth === "boot");
      expect(boot.length).toBeGreaterThan(4);
      for (const route of boot) {
        const pairs = [...allowed(route.function)];
        // A booting machine reads files (its kernel, its image): it never writes or deletes one. It
        // writes its install logs (under their own prefix), and never deletes them.
        expect(
          pairs.filter((pair) => pair.startsWith("s3:") && pair !== "s3:GetObject files/*" && !pair.endsWith(" install-logs/*")),
        ).toEqual([]);
        expect(pairs).not.toContain("s3:DeleteObject install-logs/*");
        expect(pairs).not.toContain("dynamodb:PutItem TEMPLATE");
        expect(pairs).not.toContain("dynamodb:PutItem PROFILE");
        expect(pairs).not.toContain("dynamodb:PutItem GRAPHDEF");
      }
      const bucketUsers = ROUTES.filter((route) => [...allowed(route.function)].some((pair) => pair.startsWith("s3:")));
      expect(bucketUsers.map((route) => route.path).every((path) => /\/(files|common|reports|install-logs)\b/.test(path))).toBe(true);
      expect([...allowed("deleteFile")]).toContain("s3:DeleteObject files/*");
      expect([...allowed("getFile")]).not.toContain("s3:PutObject files/*");
      // The install logs' writers reach only their prefix; their reader only reads it.
      expect([...allowed("postLogChunk")].filter((pair) => pair.startsWith("s3:")).sort()).toEqual([
        "s3:GetObject install-logs/*",
        "s3:PutObject install-logs/*",
      ]);
      expect([...allowed("getInstallLog")].filter((pair) => pair.startsWith("s3:"))).toEqual(["s3:GetObject install-logs/*"]);
      // Every store of the table is reachable by some function, and none by all.
      for (const name of STORE_NAMES)
        expect(
          ROUTES.some(
            (route) =>
              needed(accessOf(route)).size > 0 &&
              [...allowed(route.function)].some((pair) => LEADING_KEYS[name].some((key) => pair.endsWith(` ${key}`))),
          ),
        ).toBe(true);
    });

    it("keeps the table: deletion protection, retained on stack deletion, TTL on expiring items", () => {
      const table = template.Resources.DataTable as unknown as { DeletionPolicy: string; Properties: Record<string, unknown> };
      expect(table.DeletionPolicy).toBe("Retain");
      expect(table.Properties).toMatchObject({
        DeletionProtectionEnabled: true,
        TimeToLiveSpecification: { AttributeName: "expiresAt", Enabled: true },
      });
    });

    it("delivers events as issue 27 says: the table's stream of new events, a bus, a delivery queue with dead letters", () => {
      expect(template.Resources.DataTable.Properties.StreamSpecification).toEqual({ StreamViewType: "NEW_IMAGE" });
      expect(template.Resources.EventBus.Type).toBe("AWS::Events::EventBus");
      expect(template.Resources.DeliveryQueue.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: { "Fn::GetAtt": ["DeliveryDeadLetters", "Arn"] },
        maxReceiveCount: 5,
      });
      const mappings = Object.values(template.Resources).filter((resource) => resource.Type === "AWS::Lambda::EventSourceMapping");
      const stream = mappings.find((mapping) => JSON.stringify(mapping.Properties.EventSourceArn).includes("StreamArn"))!;
      // New event items only: not the sequence heads, not the other records' changes.
      expect(JSON.parse(stream.Properties.FilterCriteria.Filters[0].Pattern)).toEqual({
        eventName: ["INSERT"],
        dynamodb: { Keys: { pk: { S: [{ prefix: "EVENT#" }] }, sk: { S: [{ "anything-but": ["head"] }] } } },
      });
      expect(stream.Properties).toMatchObject({ BisectBatchOnFunctionError: true, MaximumRetryAttempts: 10 });
      const queue = mappings.find((mapping) => JSON.stringify(mapping.Properties.EventSourceArn).includes("DeliveryQueue"))!;
      expect(queue.Properties.FunctionResponseTypes).toEqual(["ReportBatchItemFailures"]);
      const functionNamed = (name: string) =>
        Object.values(template.Resources).find(
          (resource) => resource.Type === "AWS::Lambda::Function" && resource.Properties.FunctionName.endsWith(`-${name}`),
        )!;
      expect(functionNamed("publishEvents").Properties.Environment.Variables).toMatchObject({
        EVENT_BUS: { Ref: "EventBus" },
        DELIVERY_QUEUE_URL: { Ref: "DeliveryQueue" },
      });
      // The queue hides a message longer than its function may take.
      expect(template.Resources.DeliveryQueue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(
        6 * functionNamed("deliverEvents").Properties.Timeout,
      );
    });

    it("keeps the files' bucket private, HTTPS only, versioned for 30 days, with stale uploads cleaned up (issue 25)", () => {
      const bucket = template.Resources.FilesBucket.Properties;
      expect(bucket.VersioningConfiguration).toEqual({ Status: "Enabled" });
      expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe("AES256");
      expect(bucket.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.LifecycleConfiguration.Rules).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
          expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 30 } }),
          expect.objectContaining({ Prefix: "install-logs/", ExpirationInDays: 14 }),
        ]),
      );
      const [statement] = template.Resources.FilesBucketPolicy.Properties.PolicyDocument.Statement;
      expect(statement).toMatchObject({ Effect: "Deny", Action: "s3:*", Condition: { Bool: { "aws:SecureTransport": "false" } } });
    });
  }

  it("watches the stage: alarms to a topic, a dashboard, one log group kept 14 days, the poller's dead letters (issue 25)", () => {
    const alarms = Object.entries(template.Resources).filter(([, resource]) => resource.Type === "AWS::CloudWatch::Alarm");
    expect(alarms.map(([id]) => id).sort()).toEqual(
      [
        "ApiServerErrorRateAlarm",
        "LambdaThrottlesAlarm",
        "PollerDeadLettersAlarm",
        "PollerErrorsAlarm",
        "StoreUnavailableAlarm",
        "UnexpectedErrorsAlarm",
        "WorkflowsFailingAlarm",
        ...(store === "dynamodb" ? ["DynamoThrottlesAlarm", "EventDeadLettersAlarm"] : []),
      ].sort(),
    );
    for (const [, alarm] of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: "AlarmTopic" }]);
    expect(template.Resources.AlarmTopic.Type).toBe("AWS::SNS::Topic");
    // No ALARM_EMAIL: no subscription (subscribe anything to AlarmTopic after the deploy).
    expect(template.Resources.AlarmEmailSubscription).toBeUndefined();
    const dashboard = JSON.stringify(template.Resources.Dashboard.Properties.DashboardBody);
    for (const metric of ["Requests", "ServerErrors", "Boots", "WorkflowsFailed", "PollerFailures"]) expect(dashboard).toContain(metric);
    expect(template.Resources.FunctionsLogGroup.Properties).toEqual({
      LogGroupName: "/aws/lambda/lambda-tasks-provisioning-prod",
      RetentionInDays: 14,
    });
    const functions = Object.values(template.Resources).filter((resource) => resource.Type === "AWS::Lambda::Function");
    for (const fn of functions) {
      expect(fn.Properties.LoggingConfig).toEqual({ LogGroup: "/aws/lambda/lambda-tasks-provisioning-prod" });
      expect(fn.Properties.Environment.Variables).toMatchObject({
        METRICS: "on",
        METRICS_NAMESPACE: "lambda-tasks-provisioning/prod",
        LOG_LEVEL: "info",
      });
      // Tracing is off unless the stage says TRACING=on.
      expect(fn.Properties.TracingConfig).toEqual({ Mode: "PassThrough" });
    }
    const poller = functions.find((fn) => fn.Properties.FunctionName.endsWith("-runPollers"))!;
    expect(poller.Properties.DeadLetterConfig).toEqual({ TargetArn: { "Fn::GetAtt": ["PollerDeadLetters", "Arn"] } });
    const pollerRole = JSON.stringify(roles.Resources[roleOf(roles, poller)]);
    expect(pollerRole).toContain("sqs:SendMessage");
    expect(pollerRole).not.toContain("AWSXRayDaemonWriteAccess");
  });

  it("passes cfn-lint with no error and no warning, every template", async () => {
    const templates = STACK_FILES.map((file) => join(out, file));
    await expectCfnLintClean(templates);
  });
});

/**
 * Issue 36 §3: room for 200 functions. The registry grown to 200 (LAYOUT_CHECK_FUNCTIONS, copies
 * of its endpoints: lib/deploy/grownRegistry.ts) packages with every stack under 400 resources and
 * every template clean under cfn-lint, its templates packaged without building any code
 * (PACKAGE_TEMPLATES_ONLY); a deploy with either setting is refused.
 */
describe("serverless package of a 200-function registry (issue 36)", () => {
  const out = mkdtempSync(join(tmpdir(), "package-200-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("keeps every stack under 400 resources, cfn-lint clean", async () => {
    await packageStage("prod", out, {
      STORE: "dynamodb",
      LAYOUT_CHECK_FUNCTIONS: "200",
      // The templates are what is checked: no bundle is built (lib/deploy/templatesOnly.ts).
      PACKAGE_TEMPLATES_ONLY: "on",
      AUTH_USERS_PARAMETER: "/lambda-tasks-provisioning/prod/auth-users",
    });
    const { root, roles, routes, all } = packagedStack(out);
    expect(Object.values(all).filter((resource) => resource.Type === "AWS::Lambda::Function")).toHaveLength(200);
    const sizes = [root, roles, ...routes].map((stack) => Object.keys(stack.Resources).length);
    for (const size of sizes) expect(size).toBeLessThan(400);
    expect(sizes[0]).toBeGreaterThan(200);
    await expectCfnLintClean(STACK_FILES.map((file) => join(out, file)));
  }, 300_000);

  it.each([
    ["LAYOUT_CHECK_FUNCTIONS", "200"],
    ["PACKAGE_TEMPLATES_ONLY", "on"],
  ])("refuses to deploy with %s=%s", async (setting, value) => {
    const refused = await run(process.execPath, [join(ROOT, "node_modules/serverless/bin/serverless.js"), "deploy", "--stage", "prod"], {
      cwd: ROOT,
      env: envWith({ [setting]: value, AUTH_USERS_PARAMETER: "/x/users" }),
    }).then(
      () => "deployed",
      (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(refused).toContain(`${setting} is for \`serverless package\` only`);
  });
});

/**
 * Issue 55: OIDC_AUTHORIZER=gateway declares the HTTP API's JWT authorizer (the identity provider's
 * issuer and audience) and attaches it to every route that asks for credentials, and to no other
 * (a booting machine and a relay present no provider's token).
 */
describe("serverless package with the gateway's JWT authorizer (issue 55)", () => {
  const out = mkdtempSync(join(tmpdir(), "package-oidc-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("puts the provider's authorizer on the operators' routes only", async () => {
    await packageStage("sso", out, {
      OIDC_ISSUER: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Example",
      OIDC_AUDIENCE: "3n4b5urk1ft4fl3mg5e62d9ado,urn:rackhd:api",
      OIDC_AUTHORIZER: "gateway",
      AUTH_USERS: undefined,
      AUTH_USERS_PARAMETER: undefined,
      PACKAGE_TEMPLATES_ONLY: "on",
    });
    const { all } = packagedStack(out);
    const authorizers = Object.entries(all).filter(([, resource]) => resource.Type === "AWS::ApiGatewayV2::Authorizer");
    expect(authorizers).toHaveLength(1);
    const [authorizerId, authorizer] = authorizers[0];
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: "JWT",
      IdentitySource: ["$request.header.Authorization"],
      JwtConfiguration: {
        Issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Example",
        Audience: ["3n4b5urk1ft4fl3mg5e62d9ado", "urn:rackhd:api"],
      },
    });
    const routes = Object.values(all).filter((resource) => resource.Type === "AWS::ApiGatewayV2::Route");
    const guarded = (key: string) => {
      const route = routes.find((each) => each.Properties.RouteKey === key)!;
      expect(route).toBeDefined();
      return route.Properties.AuthorizationType === "JWT" && JSON.stringify(route.Properties.AuthorizerId).includes(authorizerId);
    };
    expect(guarded("GET /api/{version}/nodes")).toBe(true);
    expect(guarded("DELETE /api/{version}/tokens/{id}")).toBe(true);
    // The booting machines' and the relays' routes, the public docs and the task list's open form are not.
    expect(guarded("GET /api/{version}/profiles")).toBe(false);
    expect(guarded("POST /api/{version}/relay/jobs/lease")).toBe(false);
    expect(guarded("GET /todo/api/v1.0/tasks")).toBe(false);
    const protectedRoutes = ROUTES.filter((route) => route.auth === "northbound").flatMap((route) => methodsOf(route));
    expect(routes.filter((route) => route.Properties.AuthorizationType === "JWT")).toHaveLength(protectedRoutes.length);
    // Each routes' stack is given the authorizer's id by the root, and the templates stay lint-clean.
    await expectCfnLintClean(STACK_FILES.map((file) => join(out, file)));
  }, 240_000);
});

/**
 * Issue 25 §3: every setting of lib/config/settings.ts, given a value other than its default when
 * packaging, reaches every function as given (AUTH_USERS apart: it and AUTH_USERS_PARAMETER
 * exclude each other, and a deployment should name the parameter).
 */
describe("serverless package with every setting given (issue 25)", () => {
  const given: Record<string, string> = {
    TASKS_PUBLIC_FORM: "all",
    TASKS_AUTH: "all",
    PROVISIONING_AUTH: "on",
    AUTH_FAILURE_STATUS: "403",
    AUTH_REALM: "Lab",
    AUTH_USERS_PARAMETER: "/lambda-tasks-provisioning/lab/users",
    AUTH_ROLES: "group:lab-ops=operator@rack-1,auditor=viewer",
    AUTH_DEFAULT_ROLE: "viewer",
    AUDIT_RETENTION_DAYS: "90",
    OIDC_ISSUER: "https://login.example.com/realms/lab",
    OIDC_AUDIENCE: "rackhd-lab",
    OIDC_NAME_CLAIM: "preferred_username",
    OIDC_GROUPS_CLAIM: "roles",
    OIDC_DEFAULT_ROLE: "viewer@rack-1",
    // Its other value, gateway, is refused beside a user list (AUTH_USERS_PARAMETER here).
    OIDC_AUTHORIZER: "function",
    OIDC_CONSOLE_CLIENT: "rackhd-lab-console",
    OIDC_CONSOLE_SCOPE: "openid email roles",
    PUBLIC_BASE_URL: "https://api.example.com/lab",
    API_SERVER: "https://api.example.com",
    FILE_SERVER: "https://files.example.com",
    DISCOVERY_GRAPH: "Graph.Discovery",
    CORS_ORIGINS: "https://ops.example.com",
    BODY_LIMIT_BYTES: "2097152",
    STORE: "memory",
    DYNAMODB_TABLE: "lab-table",
    DYNAMODB_ENDPOINT: "https://dynamodb.eu-west-1.amazonaws.com",
    FILES_BUCKET: "lab-files",
    S3_ENDPOINT: "https://s3.eu-west-1.amazonaws.com",
    DEMO_NODES: "on",
    BOOT_TOKENS: "off",
    BOOT_VIA_RELAY: "on",
    UEFI_LOADER: "grub",
    RELEASE_ERASE: "full",
    RELAY_LEASE_SECONDS: "90",
    MEMORY_STORE_CAPACITY: "5000",
    MEMORY_STORE_MAX_BYTES: "1048576",
    LOG_REQUESTS: "off",
    LOG_LEVEL: "warn",
    METRICS: "off",
    HOOK_SIGNING_KEY: "lab-hook-signing-key-from-the-deploying-shell",
    HOOK_RETRY_SECONDS: "5,50,500",
    HOOK_PRIVATE_TARGETS: "on",
    HOOK_HTTP: "on",
  };
  const out = mkdtempSync(join(tmpdir(), "package-settings-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("hands each function every setting as the deploying shell gave it", async () => {
    await packageStage("lab", out, {
      ...given,
      AUTH_USERS: undefined,
      TRACING: "on",
      ALARM_EMAIL: "ops@example.com",
      // What reaches the functions is in the templates: no bundle is built (lib/deploy/templatesOnly.ts).
      PACKAGE_TEMPLATES_ONLY: "on",
    });
    const { root: template, all } = packagedStack(out);
    // The deploy-only settings: X-Ray tracing of the stage (its roles may write traces), and an address for its alarms.
    expect(template.Resources.AlarmEmailSubscription.Properties).toMatchObject({ Protocol: "email", Endpoint: "ops@example.com" });
    expect(all.ApiFunctionRole.Properties.ManagedPolicyArns).toContain("arn:aws:iam::aws:policy/AWSXRayDaemonWriteAccess");
    const functions = Object.values(template.Resources).filter((resource) => resource.Type === "AWS::Lambda::Function");
    expect(functions.length).toBe(ROUTES.length + 1 + SCHEDULED.length);
    expect(Object.keys(given).sort()).toEqual(
      SETTING_NAMES.filter((name) => name !== "AUTH_USERS" && name !== "FUNCTION_TIMEOUT_SECONDS").sort(),
    );
    for (const fn of functions) {
      expect(fn.Properties.Environment?.Variables).toMatchObject({
        ...given,
        AUTH_USERS: "",
        FUNCTION_TIMEOUT_SECONDS: "10",
        METRICS_NAMESPACE: "lambda-tasks-provisioning/lab",
      });
    }
  }, 240_000);
});
