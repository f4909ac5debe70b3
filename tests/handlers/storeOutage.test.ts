import { createServer, type Server, type Socket } from "node:net";
import { reloadSettings } from "../../lib/config/settings";
import { storeTimeouts } from "../../lib/store/dynamodb/client";
import { unavailableFor } from "../../lib/store/dynamodb/unavailable";
import { resetProcessSingleton } from "../../lib/store/processSingleton";
import { api } from "../support/api";
import { freePort } from "../support/offlineServer";

/**
 * A DynamoDB outage is a 503 with Retry-After in each service's error shape, logged once at warn
 * level with its cause; never a 500, and never a request that runs into the function's time-out.
 */
describe("a store outage", () => {
  const stalled: Server[] = [];
  const sockets = new Set<Socket>();
  const useStore = (endpoint: string, timeoutSeconds = "10") => {
    process.env.STORE = "dynamodb";
    process.env.DYNAMODB_ENDPOINT = endpoint;
    process.env.DYNAMODB_TABLE = `outage-${Math.random().toString(36).slice(2)}`;
    process.env.FUNCTION_TIMEOUT_SECONDS = timeoutSeconds;
    reloadSettings();
  };

  afterEach(() => {
    for (const name of ["STORE", "DYNAMODB_ENDPOINT", "DYNAMODB_TABLE", "FUNCTION_TIMEOUT_SECONDS", "LOG_REQUESTS"])
      delete process.env[name];
    reloadSettings();
    // The SDK keeps its connections to the stalled store open: end them, or jest never exits.
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    for (const server of stalled.splice(0)) server.close();
  });

  it("answers 503 with Retry-After when the store refuses connections (both services)", async () => {
    const port = await freePort(); // nothing listens there
    useStore(`http://127.0.0.1:${port}`);
    resetProcessSingleton(`dynamodb.client.http://127.0.0.1:${port}`);
    const lines: string[] = [];
    const spy = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const task = await api({ method: "GET", path: "/todo/api/v1.0/tasks/1" });
      expect(task).toMatchObject({ status: 503, body: { error: "Service unavailable", message: expect.stringMatching(/try again/) } });
      expect(Number(task.headers["retry-after"])).toBeGreaterThan(0);
      const node = await api({
        method: "POST",
        path: "/api/1.1/nodes",
        headers: { "content-type": "application/json" },
        body: '{"name":"n"}',
      });
      expect(node).toMatchObject({ status: 503, body: { message: expect.stringMatching(/try again/) } });
      expect(node.headers["retry-after"]).toBeDefined();
    } finally {
      spy.mockRestore();
    }
    const warnings = lines.map((line) => JSON.parse(line)).filter((line) => line.level === "warn");
    expect(warnings).toHaveLength(2);
    expect(warnings[0].unavailable).toMatch(/ECONNREFUSED|connect/i);
  });

  it("answers 503 well inside the function's time-out when the store stalls", async () => {
    // A store that accepts connections and never answers.
    const server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stalled.push(server);
    const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    useStore(endpoint, "2");
    resetProcessSingleton(`dynamodb.client.${endpoint}`);
    process.env.LOG_REQUESTS = "off";
    const started = performance.now();
    const answer = await api({ method: "GET", path: "/todo/api/v1.0/tasks/1" });
    const seconds = (performance.now() - started) / 1000;
    expect(answer.status).toBe(503);
    expect(seconds).toBeLessThan(2); // the function's time-out, here 2 s: the store's budget is half of it
  });

  it("derives the store's time-outs from the function's", () => {
    expect(storeTimeouts(10)).toEqual({ maxAttempts: 3, connectionTimeoutMs: 1000, requestTimeoutMs: 1666 });
    const { maxAttempts, requestTimeoutMs } = storeTimeouts(3);
    expect(maxAttempts * requestTimeoutMs).toBeLessThanOrEqual(1500);
  });

  it.each([
    ["ProvisionedThroughputExceededException", {}],
    ["ThrottlingException", {}],
    ["RequestLimitExceeded", {}],
    ["InternalServerError", {}],
    ["TimeoutError", {}],
    ["Error", { code: "ECONNRESET" }],
    ["UnknownError", { $metadata: { httpStatusCode: 503 } }],
  ])("treats %s as an outage (503), and nothing else", (name, extra) => {
    expect(unavailableFor(Object.assign(new Error("x"), { name, ...extra }))?.kind).toBe("unavailable");
  });

  it.each([["ValidationException"], ["ConditionalCheckFailedException"], ["ResourceNotFoundException"]])("keeps %s as it is", (name) => {
    expect(unavailableFor(Object.assign(new Error("x"), { name, $metadata: { httpStatusCode: 400 } }))).toBeUndefined();
  });

  it("answers 503 with Retry-After, and lets nobody in, when the user list in SSM cannot be read", async () => {
    const port = await freePort(); // nothing listens there: the parameter store is unreachable
    Object.assign(process.env, {
      PROVISIONING_AUTH: "on",
      AUTH_USERS_PARAMETER: "/lambda-tasks-provisioning/test/auth-users",
      AWS_ENDPOINT_URL_SSM: `http://127.0.0.1:${port}`,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "local",
      AWS_SECRET_ACCESS_KEY: "local",
      LOG_REQUESTS: "off",
    });
    reloadSettings();
    try {
      const answer = await api({
        method: "GET",
        path: "/api/1.1/nodes",
        headers: { authorization: `Basic ${Buffer.from("admin:pw").toString("base64")}` },
      });
      expect(answer).toMatchObject({ status: 503, headers: { "retry-after": "5" }, body: { message: "The user list cannot be read now" } });
    } finally {
      for (const name of [
        "PROVISIONING_AUTH",
        "AUTH_USERS_PARAMETER",
        "AWS_ENDPOINT_URL_SSM",
        "AWS_REGION",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
      ])
        delete process.env[name];
    }
  });
});
