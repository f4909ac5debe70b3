import fc from "fast-check";
import { handler as listHandler } from "../../handlers/tasks/list";
import { hashPassword } from "../../lib/auth/passwordHash";
import { basic, invoke } from "../support/apiGatewayEvent";
import { stdoutLines } from "../support/stdoutLines";
import { freshTaskStore, JSON_HEADERS, TASKS, taskApi } from "../support/taskApi";

const SETTINGS = [
  "TASKS_PUBLIC_FORM",
  "TASKS_AUTH",
  "AUTH_USERS",
  "AUTH_FAILURE_STATUS",
  "AUTH_REALM",
  "PUBLIC_BASE_URL",
  "CORS_ORIGINS",
  "BODY_LIMIT_BYTES",
  "MEMORY_STORE_CAPACITY",
  "LOG_REQUESTS",
];

beforeEach(() => {
  for (const name of SETTINGS) delete process.env[name];
  process.env.LOG_REQUESTS = "off";
  freshTaskStore();
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  taskApi({ method: "POST", path: TASKS, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
const put = (id: number | string, body: string, headers: Record<string, string> = JSON_HEADERS) =>
  taskApi({ method: "PUT", path: `${TASKS}/${id}`, headers, body });
const list = (headers: Record<string, string> = {}) => taskApi({ method: "GET", path: TASKS, headers });

describe("task handlers, default settings (public form on the list)", () => {
  it("creates a task: 201, done false, description defaulted, id in the single answer", async () => {
    const answer = await post({ title: "Buy groceries", done: true, id: 99 });
    expect(answer.status).toBe(201);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.body).toEqual({ task: { id: 1, title: "Buy groceries", description: "", done: false } });
  });

  it("lists in creation order with uri in place of id, built from API Gateway's host", async () => {
    await post({ title: "a" });
    await post({ title: "b", description: "x" });
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      tasks: [
        { uri: "https://abc123.execute-api.us-east-1.amazonaws.com/todo/api/v1.0/tasks/1", title: "a", description: "", done: false },
        { uri: "https://abc123.execute-api.us-east-1.amazonaws.com/todo/api/v1.0/tasks/2", title: "b", description: "x", done: false },
      ],
    });
  });

  it("lists an empty store as an empty array", async () => {
    expect((await list()).body).toEqual({ tasks: [] });
  });

  it("gets one task, accepting leading zeros", async () => {
    await post({ title: "a" });
    await post({ title: "b" });
    expect((await taskApi({ method: "GET", path: `${TASKS}/02` })).body).toEqual({
      task: { id: 2, title: "b", description: "", done: false },
    });
  });

  it("updates only the supplied fields", async () => {
    await post({ title: "a", description: "d" });
    const answer = await put(1, JSON.stringify({ done: true, foo: 1 }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ task: { id: 1, title: "a", description: "d", done: true } });
    expect((await put(1, JSON.stringify({ title: "b", done: false }))).body.task).toEqual({
      id: 1,
      title: "b",
      description: "d",
      done: false,
    });
  });

  it("deletes a task, after which every route says not found", async () => {
    await post({ title: "a" });
    const answer = await taskApi({ method: "DELETE", path: `${TASKS}/1`, headers: JSON_HEADERS });
    expect(answer).toMatchObject({ status: 200, body: { result: true } });
    for (const method of ["GET", "DELETE"]) {
      expect(await taskApi({ method, path: `${TASKS}/1` })).toMatchObject({ status: 404, body: { error: "Not found" } });
    }
    expect((await put(1, "{}")).status).toBe(404);
  });

  it("follows the seed's id rule: last + 1, a deleted last id comes back, 1 on an empty list", async () => {
    await post({ title: "a" });
    await post({ title: "b" });
    await taskApi({ method: "DELETE", path: `${TASKS}/2` });
    expect((await post({ title: "c" })).body.task.id).toBe(2);
    await taskApi({ method: "DELETE", path: `${TASKS}/1` });
    await taskApi({ method: "DELETE", path: `${TASKS}/2` });
    expect((await post({ title: "d" })).body.task.id).toBe(1);
  });

  it.each(["abc", "-1", "1.0", "0x1", "1e3", "99999999999999999999"])("answers 404 JSON for the id %p on every method", async (id) => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const answer = await taskApi({ method, path: `${TASKS}/${id}`, headers: JSON_HEADERS, body: method === "PUT" ? "{}" : undefined });
      expect(answer).toMatchObject({ status: 404, body: { error: "Not found" } });
    }
  });

  it.each([
    ["no title", JSON.stringify({ description: "x" })],
    ["a numeric title", JSON.stringify({ title: 123 })],
    ["a null title", JSON.stringify({ title: null })],
    ["a non-string description", JSON.stringify({ title: "t", description: 1 })],
    ["an array", JSON.stringify(["title"])],
    ["a string", JSON.stringify("title")],
    ["a number", "5"],
    ["true", "true"],
    ["malformed JSON", "{"],
    ["single quotes", "{'title':'x'}"],
    ["trailing garbage", '{"title":"x"} x'],
    ["an empty body", ""],
  ])("refuses a POST with %s: 400 and nothing stored", async (_label, body) => {
    const answer = await taskApi({ method: "POST", path: TASKS, headers: JSON_HEADERS, body });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("Bad request");
    expect((await list()).body.tasks).toEqual([]);
  });

  it.each([["text/plain"], ["application/x-www-form-urlencoded"]])("refuses a POST with content type %s", async (type) => {
    const answer = await taskApi({ method: "POST", path: TASKS, headers: { "content-type": type }, body: '{"title":"x"}' });
    expect(answer).toMatchObject({ status: 400, body: { error: "Bad request", message: "Content-Type must be application/json" } });
  });

  it("refuses a POST without a content type", async () => {
    const answer = await taskApi({ method: "POST", path: TASKS, body: '{"title":"x"}' });
    expect(answer.status).toBe(400);
  });

  it("accepts +json types and charset parameters", async () => {
    expect(
      (
        await taskApi({
          method: "POST",
          path: TASKS,
          headers: { "content-type": "Application/JSON; charset=UTF-8" },
          body: '{"title":"x"}',
        })
      ).status,
    ).toBe(201);
    expect(
      (await taskApi({ method: "POST", path: TASKS, headers: { "content-type": "application/vnd.api+json" }, body: '{"title":"y"}' }))
        .status,
    ).toBe(201);
  });

  it("checks 404 before the body on PUT", async () => {
    expect((await put(5, "not json", { "content-type": "text/plain" })).status).toBe(404);
    expect((await put(5, JSON.stringify({ done: "yes" }))).status).toBe(404);
  });

  it.each([
    ['{"done":"true"}'],
    ['{"done":1}'],
    ['{"done":null}'],
    ['{"title":5}'],
    ['{"description":[]}'],
    ["[1]"],
    ['"abc"'],
    ["5"],
    ["true"],
    ["null"],
    ["{"],
    [""],
  ])("refuses the PUT body %s with 400 and changes nothing", async (body) => {
    await post({ title: "a", description: "d" });
    const answer = await put(1, body);
    expect(answer).toMatchObject({ status: 400, body: { error: "Bad request" } });
    expect((await taskApi({ method: "GET", path: `${TASKS}/1` })).body.task).toEqual({ id: 1, title: "a", description: "d", done: false });
  });

  it("treats a PUT of {} as a valid no-op", async () => {
    await post({ title: "a" });
    expect((await put(1, "{}")).body.task).toEqual({ id: 1, title: "a", description: "", done: false });
  });

  it("answers 405 JSON with Allow for a known path and another method", async () => {
    const answer = await taskApi({ method: "POST", path: `${TASKS}/1` });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, PUT, DELETE, OPTIONS");
    expect(answer.body.error).toBe("Method not allowed");
    expect((await taskApi({ method: "DELETE", path: TASKS })).headers.allow).toBe("GET, POST, OPTIONS");
  });

  it("answers 404 JSON for unknown paths, trailing slashes and other cases", async () => {
    for (const path of [`${TASKS}/`, `${TASKS}/1/`, "/TODO/api/v1.0/tasks", "/todo/api/v1.0/nope"]) {
      expect(await taskApi({ method: "GET", path })).toMatchObject({ status: 404, body: { error: "Not found" } });
    }
  });

  it("accepts browser-style requests: JSON content type on GET/DELETE, cache-buster, odd Accept", async () => {
    await post({ title: "a" });
    const headers = { ...JSON_HEADERS, accept: "undefined" };
    expect((await taskApi({ method: "GET", path: `${TASKS}?_=1700000000000`, headers })).status).toBe(200);
    expect((await taskApi({ method: "GET", path: `${TASKS}/1?_=1`, headers: { ...headers, accept: "text/html" } })).status).toBe(200);
    expect((await taskApi({ method: "DELETE", path: `${TASKS}/1`, headers })).status).toBe(200);
  });

  it("answers 413 JSON for a body over the limit and stores nothing", async () => {
    process.env.BODY_LIMIT_BYTES = "64";
    const answer = await post({ title: "x".repeat(100) });
    expect(answer).toMatchObject({ status: 413, body: { error: "Payload too large" } });
    expect((await list()).body.tasks).toEqual([]);
    expect((await post({ title: "short" })).status).toBe(201);
  });

  it("refuses creates beyond the store's capacity with 507 JSON", async () => {
    process.env.MEMORY_STORE_CAPACITY = "2";
    freshTaskStore();
    await post({ title: "a" });
    await post({ title: "b" });
    const answer = await post({ title: "c" });
    expect(answer).toMatchObject({ status: 507, body: { error: "Insufficient storage" } });
    expect((await list()).body.tasks).toHaveLength(2);
  });

  it("answers 500 JSON without details when a setting is invalid", async () => {
    process.env.TASKS_PUBLIC_FORM = "sometimes";
    const answer = await list();
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ error: "Internal server error" });
  });
});

describe("public form", () => {
  it("off: ids everywhere", async () => {
    process.env.TASKS_PUBLIC_FORM = "off";
    await post({ title: "a" });
    expect((await list()).body.tasks[0]).toEqual({ id: 1, title: "a", description: "", done: false });
  });

  it("all: uri in every answer (create, get, update, list)", async () => {
    process.env.TASKS_PUBLIC_FORM = "all";
    const uri = "https://abc123.execute-api.us-east-1.amazonaws.com/todo/api/v1.0/tasks/1";
    expect((await post({ title: "a" })).body.task).toEqual({ uri, title: "a", description: "", done: false });
    expect((await taskApi({ method: "GET", path: `${TASKS}/1` })).body.task.uri).toBe(uri);
    expect((await put(1, '{"done":true}')).body.task).toEqual({ uri, title: "a", description: "", done: true });
    expect((await list()).body.tasks[0].uri).toBe(uri);
  });

  it("keeps an API Gateway stage prefix in the uri", async () => {
    await post({ title: "a" });
    const staged = await invoke(listHandler, { method: "GET", path: `/prod${TASKS}`, route: TASKS, stage: "prod" });
    expect(staged.body.tasks[0].uri).toBe("https://abc123.execute-api.us-east-1.amazonaws.com/prod/todo/api/v1.0/tasks/1");
  });

  it("uses PUBLIC_BASE_URL when set", async () => {
    process.env.PUBLIC_BASE_URL = "https://tasks.example.com/v/";
    await post({ title: "a" });
    expect((await list()).body.tasks[0].uri).toBe("https://tasks.example.com/v/todo/api/v1.0/tasks/1");
  });
});

describe("secured form", () => {
  const good = { authorization: basic("miguel", "python") };

  beforeEach(() => {
    process.env.AUTH_USERS = "miguel:python";
  });

  it("list: only GET /tasks needs credentials", async () => {
    process.env.TASKS_AUTH = "list";
    const refused = await list();
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: "Unauthorized access" });
    expect(refused.headers["www-authenticate"]).toBe('Basic realm="Authentication Required"');
    expect((await list(good)).status).toBe(200);
    expect((await post({ title: "a" })).status).toBe(201);
    expect((await taskApi({ method: "GET", path: `${TASKS}/1` })).status).toBe(200);
  });

  it("all: every task route needs credentials, checked before 404 and 400", async () => {
    process.env.TASKS_AUTH = "all";
    expect((await taskApi({ method: "GET", path: `${TASKS}/42` })).status).toBe(401);
    expect((await taskApi({ method: "POST", path: TASKS, headers: JSON_HEADERS, body: "{" })).status).toBe(401);
    expect((await put(42, "{")).status).toBe(401);
    expect((await taskApi({ method: "DELETE", path: `${TASKS}/42` })).status).toBe(401);
    expect((await post({ title: "a" }, good)).status).toBe(201);
    expect((await taskApi({ method: "GET", path: `${TASKS}/42`, headers: good })).status).toBe(404);
    expect((await taskApi({ method: "POST", path: TASKS, headers: { ...JSON_HEADERS, ...good }, body: "{" })).status).toBe(400);
  });

  it("answers 403 with the challenge and a custom realm when configured", async () => {
    process.env.TASKS_AUTH = "all";
    process.env.AUTH_FAILURE_STATUS = "403";
    process.env.AUTH_REALM = "Tasks";
    const answer = await list();
    expect(answer.status).toBe(403);
    expect(answer.headers["www-authenticate"]).toBe('Basic realm="Tasks"');
    expect(answer.body).toEqual({ error: "Unauthorized access" });
  });

  it.each([
    ["a wrong password", basic("miguel", "nope")],
    ["an unknown user", basic("ann", "python")],
    ["an empty password", basic("miguel", "")],
    ["another scheme", `Bearer ${Buffer.from("miguel:python").toString("base64")}`],
    ["invalid base64", "Basic %%%"],
    ["no colon", `Basic ${Buffer.from("miguelpython").toString("base64")}`],
    ["an empty header", ""],
  ])("refuses %s", async (_label, authorization) => {
    process.env.TASKS_AUTH = "list";
    expect((await list({ authorization })).status).toBe(401);
  });

  it("accepts a hashed password", async () => {
    process.env.TASKS_AUTH = "list";
    process.env.AUTH_USERS = `miguel:${hashPassword("python", { N: 1024, r: 8, p: 1 })}`;
    expect((await list(good)).status).toBe(200);
    expect((await list({ authorization: basic("miguel", "scrypt") })).status).toBe(401);
  });

  it("fails closed, with one clear log line, when auth is on and no user is configured", async () => {
    process.env.TASKS_AUTH = "list";
    delete process.env.AUTH_USERS;
    const lines: string[] = [];
    const spy = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      expect((await list(good)).status).toBe(401);
    } finally {
      spy.mockRestore();
    }
    expect(lines.join("")).toMatch(/AUTH_USERS names no user/);
  });

  it("leaves preflight and 405 free of auth", async () => {
    process.env.TASKS_AUTH = "all";
    expect((await taskApi({ method: "OPTIONS", path: TASKS, headers: { origin: "http://localhost:5000" } })).status).toBe(204);
    expect((await taskApi({ method: "PATCH", path: `${TASKS}/1` })).status).toBe(405);
  });
});

describe("CORS", () => {
  it("answers a preflight with the methods and headers the browser client needs", async () => {
    const answer = await taskApi({
      method: "OPTIONS",
      path: `${TASKS}/1`,
      headers: {
        origin: "http://localhost:5000",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    expect(answer.headers["access-control-allow-methods"]).toEqual(expect.stringContaining("PUT"));
    expect(answer.headers["access-control-allow-methods"]).toEqual(expect.stringContaining("DELETE"));
    expect(answer.headers["access-control-allow-headers"]).toBe("Authorization, Content-Type");
  });

  it("puts Access-Control-Allow-Origin on errors too", async () => {
    process.env.TASKS_AUTH = "all";
    process.env.AUTH_USERS = "miguel:python";
    for (const request of [
      { method: "GET", path: TASKS },
      { method: "GET", path: `${TASKS}/x` },
      { method: "PATCH", path: TASKS },
    ]) {
      expect((await taskApi({ ...request, headers: { origin: "http://a.example" } })).headers["access-control-allow-origin"]).toBe("*");
    }
  });

  it("echoes only a listed origin", async () => {
    process.env.CORS_ORIGINS = "http://localhost:5000,http://127.0.0.1:5000";
    const allowed = await list({ origin: "http://127.0.0.1:5000" });
    expect(allowed.headers["access-control-allow-origin"]).toBe("http://127.0.0.1:5000");
    expect(allowed.headers.vary).toBe("Origin");
    expect((await list({ origin: "http://evil.example" })).headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("request log", () => {
  it("writes one JSON line per request with method, route, status, duration and ids, and no secrets", async () => {
    process.env.LOG_REQUESTS = "on";
    process.env.TASKS_AUTH = "all";
    process.env.AUTH_USERS = "miguel:python";
    const lines: string[] = [];
    const spy = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await post({ title: "secret-title" }, { authorization: basic("miguel", "python") });
      await list({ authorization: basic("miguel", "wrong") });
    } finally {
      spy.mockRestore();
    }
    expect(lines).toHaveLength(2);
    const [created, refused] = lines.map((line) => JSON.parse(line));
    expect(created).toMatchObject({ level: "info", msg: "request", method: "POST", route: "POST /todo/api/v1.0/tasks", status: 201 });
    expect(typeof created.durationMs).toBe("number");
    expect(created.requestId).toMatch(/^req-/);
    expect(created.awsRequestId).toMatch(/^aws-/);
    // Every line of a request names its function, and a correlation id (API Gateway's request id unless the caller gave one).
    expect(created).toMatchObject({ function: "createTask", correlationId: created.requestId });
    expect(refused).toMatchObject({ status: 401, function: "listTasks" });
    const all = lines.join("");
    for (const secret of ["python", "bWlndWVs", "secret-title", "authorization", "wrong"]) expect(all).not.toContain(secret);
  });
});

describe("metrics and correlation (issue 25)", () => {
  it("writes one embedded-metric-format line per request, per function and for the service, under METRICS=on", async () => {
    process.env.METRICS = "on";
    const lines = await stdoutLines(async () => {
      await post({ title: "one" });
      await taskApi({ method: "GET", path: `${TASKS}/999`, headers: JSON_HEADERS });
    }).finally(() => {
      process.env.METRICS = "off";
    });
    const [created, missing] = lines.map((line) => JSON.parse(line));
    expect(created._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: "lambda-tasks-provisioning",
        Dimensions: [["function"], []],
        Metrics: [
          { Name: "Requests", Unit: "Count" },
          { Name: "ClientErrors", Unit: "Count" },
          { Name: "ServerErrors", Unit: "Count" },
          { Name: "Latency", Unit: "Milliseconds" },
        ],
      },
    ]);
    expect(created).toMatchObject({ function: "createTask", Requests: 1, ClientErrors: 0, ServerErrors: 0 });
    expect(missing).toMatchObject({ function: "getTask", Requests: 1, ClientErrors: 1, ServerErrors: 0 });
  });

  it("says the correlation id back: the caller's when it is a plain token, else API Gateway's request id", async () => {
    const given = await taskApi({ method: "GET", path: TASKS, headers: { ...JSON_HEADERS, "x-correlation-id": "boot-42.a" } });
    expect(given.headers["x-correlation-id"]).toBe("boot-42.a");
    const odd = await taskApi({ method: "GET", path: TASKS, headers: { ...JSON_HEADERS, "x-correlation-id": "no spaces <here>" } });
    expect(odd.headers["x-correlation-id"]).toMatch(/^req-/);
  });
});

describe("properties", () => {
  const methods = fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");
  const paths = fc.oneof(
    fc.constantFrom(TASKS, `${TASKS}/1`, `${TASKS}/2`, `${TASKS}/`, "/todo/api/v1.0", "/"),
    fc.string().map((s) => `${TASKS}/${encodeURIComponent(s)}`),
    fc.webPath(),
  );
  const bodies = fc.oneof(
    fc.string(),
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.constant(undefined),
  );
  const headers = fc.record(
    {
      "content-type": fc.oneof(fc.constant("application/json"), fc.string()),
      authorization: fc.oneof(fc.constant(basic("miguel", "python")), fc.string()),
      accept: fc.string(),
      origin: fc.string(),
    },
    { requiredKeys: [] },
  );

  it("no method, path, header or body yields a 5xx, and every answer is JSON or empty", async () => {
    await fc.assert(
      fc.asyncProperty(methods, paths, headers, bodies, fc.constantFrom("off", "list", "all"), async (method, path, hdrs, body, auth) => {
        process.env.TASKS_AUTH = auth;
        process.env.AUTH_USERS = "miguel:python";
        const answer = await taskApi({ method, path, headers: hdrs, body });
        expect(answer.status).toBeLessThan(500);
        if (answer.raw !== "") expect(() => JSON.parse(answer.raw)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it("a rejected request changes nothing in the store", async () => {
    await fc.assert(
      fc.asyncProperty(methods, paths, headers, bodies, async (method, path, hdrs, body) => {
        freshTaskStore();
        delete process.env.TASKS_AUTH;
        await post({ title: "a", description: "b" });
        await post({ title: "c" });
        const before = (await taskApi({ method: "GET", path: TASKS })).raw;
        const answer = await taskApi({ method, path, headers: hdrs, body });
        if (answer.status >= 400) expect((await taskApi({ method: "GET", path: TASKS })).raw).toBe(before);
      }),
      { numRuns: 300 },
    );
  });
});
