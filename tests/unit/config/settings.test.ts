import { readSettings, reloadSettings, settings } from "../../../lib/config/settings";
import { ConfigError } from "../../../lib/errors";

describe("readSettings", () => {
  it("has defaults that need no setup", () => {
    const s = readSettings({});
    expect(s).toMatchObject({
      tasksPublicForm: "list",
      tasksAuth: "off",
      provisioningAuth: false,
      authFailureStatus: 401,
      authRealm: "Authentication Required",
      publicBaseUrl: undefined,
      apiServer: undefined,
      corsOrigins: "*",
      bodyLimitBytes: 1048576,
      store: "memory",
      demoNodes: false,
      logRequests: true,
    });
    expect(s.authUsers.size).toBe(0);
  });

  it("reads every setting", () => {
    const s = readSettings({
      TASKS_PUBLIC_FORM: "ALL",
      TASKS_AUTH: "list",
      PROVISIONING_AUTH: "on",
      AUTH_FAILURE_STATUS: "403",
      AUTH_REALM: "Tasks",
      AUTH_USERS: "miguel:python",
      PUBLIC_BASE_URL: "https://api.example.com/prod/",
      API_SERVER: "http://172.31.128.1:8080",
      CORS_ORIGINS: "http://localhost:5000, http://127.0.0.1:5000/",
      BODY_LIMIT_BYTES: "2048",
      STORE: "dynamodb",
      DEMO_NODES: "on",
      MEMORY_STORE_CAPACITY: "10",
      MEMORY_STORE_MAX_BYTES: "4096",
      LOG_REQUESTS: "off",
    });
    expect(s).toMatchObject({
      tasksPublicForm: "all",
      tasksAuth: "list",
      provisioningAuth: true,
      authFailureStatus: 403,
      authRealm: "Tasks",
      publicBaseUrl: "https://api.example.com/prod",
      apiServer: "http://172.31.128.1:8080",
      corsOrigins: ["http://localhost:5000", "http://127.0.0.1:5000"],
      bodyLimitBytes: 2048,
      store: "dynamodb",
      demoNodes: true,
      memoryStoreCapacity: 10,
      memoryStoreMaxBytes: 4096,
      logRequests: false,
    });
  });

  it.each([
    ["TASKS_PUBLIC_FORM", "some"],
    ["TASKS_AUTH", "yes"],
    ["PROVISIONING_AUTH", "true"],
    ["AUTH_FAILURE_STATUS", "500"],
    ["PUBLIC_BASE_URL", "example.com"],
    ["API_SERVER", "ftp://x"],
    ["BODY_LIMIT_BYTES", "-1"],
    ["BODY_LIMIT_BYTES", "1.5"],
    ["STORE", "redis"],
    ["MEMORY_STORE_CAPACITY", "0"],
  ])("refuses %s=%p, naming the variable", (name, value) => {
    expect(() => readSettings({ [name]: value })).toThrow(ConfigError);
    expect(() => readSettings({ [name]: value })).toThrow(name);
  });
});

describe("settings", () => {
  it("parses the environment once per container, and again after reloadSettings()", () => {
    const env: Record<string, string> = { TASKS_AUTH: "off" };
    const first = settings(env);
    expect(settings(env)).toBe(first);
    env.TASKS_AUTH = "all";
    expect(settings(env).tasksAuth).toBe("off");
    reloadSettings();
    expect(settings(env).tasksAuth).toBe("all");
  });

  it("does not keep a configuration that failed to parse", () => {
    const env: Record<string, string> = { TASKS_AUTH: "maybe" };
    reloadSettings();
    expect(() => settings(env)).toThrow(ConfigError);
    env.TASKS_AUTH = "list";
    expect(settings(env).tasksAuth).toBe("list");
  });

  it("takes AUTH_USERS_PARAMETER (an SSM parameter name) instead of AUTH_USERS, never both", () => {
    expect(readSettings({ AUTH_USERS_PARAMETER: "/lambda-tasks-provisioning/prod/auth-users" }).authUsersParameter).toBe(
      "/lambda-tasks-provisioning/prod/auth-users",
    );
    expect(readSettings({}).authUsersParameter).toBeUndefined();
    expect(() => readSettings({ AUTH_USERS_PARAMETER: "/a", AUTH_USERS: "u:p" })).toThrow(/both set/);
    expect(() => readSettings({ AUTH_USERS_PARAMETER: "no-leading-slash" })).toThrow(/starting with \//);
    expect(() => readSettings({ AUTH_USERS_PARAMETER: "no spaces allowed" })).toThrow(
      /AUTH_USERS_PARAMETER must be an SSM parameter.s full name/,
    );
  });

  it("hands UEFI machines iPXE unless UEFI_LOADER=grub (issue 38)", () => {
    expect(readSettings({}).uefiLoader).toBe("ipxe");
    expect(readSettings({ UEFI_LOADER: "GRUB" }).uefiLoader).toBe("grub");
    expect(() => readSettings({ UEFI_LOADER: "shim" })).toThrow(/UEFI_LOADER must be one of ipxe, grub \(got "shim"\)/);
  });

  it("takes RELAY_PUSH_URL as a ws(s) URL less its trailing slash, none when unset, and refuses anything else (issue 56)", () => {
    expect(readSettings({}).relayPushUrl).toBeUndefined();
    expect(readSettings({ RELAY_PUSH_URL: " " }).relayPushUrl).toBeUndefined();
    expect(readSettings({ RELAY_PUSH_URL: "wss://abc.execute-api.us-east-1.amazonaws.com/prod/" }).relayPushUrl).toBe(
      "wss://abc.execute-api.us-east-1.amazonaws.com/prod",
    );
    expect(readSettings({ RELAY_PUSH_URL: "ws://127.0.0.1:3001" }).relayPushUrl).toBe("ws://127.0.0.1:3001");
    expect(() => readSettings({ RELAY_PUSH_URL: "https://abc.example/prod" })).toThrow(/RELAY_PUSH_URL must be an absolute ws\(s\) URL/);
    expect(() => readSettings({ RELAY_PUSH_URL: "abc.example" })).toThrow(
      /RELAY_PUSH_URL must be an absolute ws\(s\) URL \(got "abc.example"\)/,
    );
  });

  it("turns boot tokens on unless BOOT_TOKENS=off", () => {
    expect(readSettings({}).bootTokens).toBe(true);
    expect(readSettings({ BOOT_TOKENS: "off" }).bootTokens).toBe(false);
    expect(() => readSettings({ BOOT_TOKENS: "maybe" })).toThrow(/BOOT_TOKENS must be one of on, off/);
  });
});
