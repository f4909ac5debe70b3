import fc from "fast-check";
import provisioningDocument from "../../lib/http/openapi/provisioning.generated.json";
import tasksDocument from "../../lib/http/openapi/tasks.generated.json";
import { operationsOf } from "../support/contract";
import { bodies, DEMO_MAC, fill, HOSTILE, type Operation, PARAMETER_VALUES, type Schema, sample } from "../support/fuzzInputs";
import { inFlight } from "../support/inFlight";
import { type OfflineServer, startOffline } from "../support/offlineServer";

jest.setTimeout(900_000);

/** Known secrets the requests carry: none may come back in an answer or reach a log line. */
const SECRETS = { obm: "fuzz-obm-s3cret-7731", root: "fuzz-root-s3cret-4417", basic: "fuzz-basic-s3cret-9052" };
const STORE = process.env.E2E_STORE ?? "memory";
/**
 * Each store draws its own requests (issue 36): DynamoDB 10,000 a service, the memory store 5,000
 * from other seeds, so a run sends 15,000 distinct requests to each service where both stores once
 * got the same 10,000, in half the memory store's time. A seed is the tasks service's; the
 * provisioning service's is the next. FUZZ_REQUESTS sets the count for either store.
 */
const PLAN: Record<string, { requests: number; seed: number }> = {
  dynamodb: { requests: 10_000, seed: 20261123 },
  memory: { requests: 5_000, seed: 20261125 },
};
const REQUESTS_PER_SERVICE = Number(process.env.FUZZ_REQUESTS ?? PLAN[STORE].requests);
const SEED = PLAN[STORE].seed;
const CONCURRENCY = 16;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Bodies that carry the known secrets where the provisioning service keeps secrets. */
const secretBodies = [
  { service: "noop-obm-service", config: { host: "10.1.1.1", user: "admin", password: SECRETS.obm } },
  { name: "fuzz-node", obmSettings: [{ service: "noop-obm-service", config: { password: SECRETS.obm } }] },
  { name: "Graph.InstallCentOS", options: { "install-os": { version: "7.0", repo: "http://x/c", rootPassword: SECRETS.root } } },
];

/** The template and profile library's routes and the file store's byte reads, whose answers hold what was put in them. */
const ECHOES_WHAT_WAS_PUT = /\/(templates|profiles)\/library(\/|\?|$)|\/files\/(?!metadata\/|list\/|md5\/)[^/?]+(\/latest)?(\?|$)/;

/**
 * The routes that answer a fixed document whatever they are sent (the API document, the docs
 * viewer's 900 KB script): drawn as often as the others, they were 12 % of the tasks service's
 * requests and 1.1 GB of its 1.2 GB of answers, which both processes spent most of the fuzz's time
 * moving and searching for secrets. Still drawn, 20 times less often.
 */
const FIXED_DOCUMENT = /\/(openapi\.json|docs\/redoc\.js)$/;

/**
 * The requests of one service, drawn with a fixed seed: an operation of its OpenAPI document (or
 * a method it does not have), plausible, hostile or random path parameters and queries, bodies
 * from the schema (fitting and not), random JSON, the secret-carrying bodies, odd content types,
 * Basic credentials with a known password, and Idempotency-Keys from a small pool (so that
 * replays and mismatches happen).
 */
function requestsFor(document: { paths: object; components: { schemas: object } }, prefix: string, seed: number): FuzzRequest[] {
  const schemas = document.components.schemas as Record<string, Schema>;
  const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([template, methods]) =>
    operationsOf(methods).map(([method, operation]) => {
      const ref = operation.requestBody?.content["application/json"].schema.$ref;
      return { template, method: method.toUpperCase(), schema: ref ? schemas[ref.split("/").pop()!] : undefined };
    }),
  );
  const parameter = (name: string) =>
    fc.oneof(fc.constantFrom(...(PARAMETER_VALUES[name] ?? ["x"])), fc.constantFrom(...HOSTILE), fc.string({ maxLength: 20 }));
  const request = fc
    .record({
      operation: fc.oneof(
        { weight: 20, arbitrary: fc.constantFrom(...operations.filter((each) => !FIXED_DOCUMENT.test(each.template))) },
        { weight: 1, arbitrary: fc.constantFrom(...operations.filter((each) => FIXED_DOCUMENT.test(each.template))) },
      ),
      otherMethod: fc.oneof(
        { weight: 9, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom("PUT", "DELETE", "PATCH", "POST", "GET") },
      ),
      params: fc.record({
        id: parameter("id"),
        identifier: parameter("identifier"),
        service: parameter("service"),
        name: parameter("name"),
      }),
      query: fc.dictionary(
        fc.oneof(
          fc.string({ maxLength: 10 }),
          fc.constantFrom("__proto__", "constructor", "macs", "nodeId", "limit", "next", "$top", "name"),
        ),
        fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(DEMO_MAC, "10", "0", "-1", "abc")),
        { maxKeys: 3 },
      ),
      bodyKind: fc.constantFrom("valid", "valid", "schema", "schema", "random", "secret", "broken", "none"),
      bodyIndex: fc.nat(),
      randomBody: fc.jsonValue({ maxDepth: 3 }),
      contentType: fc.constantFrom("application/json", "application/json", "application/json; charset=utf-8", "text/plain", undefined),
      basic: fc.boolean(),
      key: fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom("k1", "k2", "k3", "bad key") },
      ),
    })
    .map(({ operation, otherMethod, params, query, bodyKind, bodyIndex, randomBody, contentType, basic, key }): FuzzRequest => {
      const search = new URLSearchParams(query).toString();
      const path =
        fill(`${prefix}${operation.template}`, (name) => params[name as keyof typeof params] ?? "x") + (search ? `?${search}` : "");
      const variants = bodies(operation.schema);
      const body =
        bodyKind === "valid"
          ? JSON.stringify(sample(operation.schema))
          : bodyKind === "schema"
            ? JSON.stringify(variants[bodyIndex % variants.length] ?? sample(operation.schema))
            : bodyKind === "random"
              ? JSON.stringify(randomBody)
              : bodyKind === "secret"
                ? JSON.stringify(secretBodies[bodyIndex % secretBodies.length])
                : bodyKind === "broken"
                  ? '{"a":'
                  : undefined;
      const headers: Record<string, string> = {};
      if (contentType) headers["content-type"] = contentType;
      if (basic) headers.authorization = `Basic ${Buffer.from(`admin:${SECRETS.basic}`).toString("base64")}`;
      if (key) headers["idempotency-key"] = key;
      const method = otherMethod ?? operation.method;
      return { method, path, headers, body: method === "GET" || method === "HEAD" ? undefined : body };
    });
  return fc.sample(request, { seed, numRuns: REQUESTS_PER_SERVICE });
}

interface Tally {
  requests: number;
  /** Requests sent again because the connection dropped before any answer (see sendOnce). */
  resent: number;
  statuses: Map<number, number>;
  fiveHundreds: string[];
  leaks: string[];
}

/**
 * One request. A kept-alive connection that the server closes as the client reuses it ("other side
 * closed", ECONNRESET: a race of keep-alive timers, seen here up to 6 times in 10,000 requests on a
 * busy 2-core machine, with or without this issue's changes) carries no answer: the request is sent
 * again once on a new connection, and counted. A server that drops connections for a cause fails
 * the test (the one resend fails too, or more than 1 % are resent), as does any 5xx.
 */
async function sendOnce(baseUrl: string, request: FuzzRequest, tally: Tally): Promise<Response> {
  const send = () =>
    fetch(baseUrl + request.path, {
      method: request.method,
      // No compressed answers, as behind API Gateway's HTTP API (which compresses none): serverless
      // offline's web server gzips any answer over 1 KB that a client accepts so, and the task
      // lists that the fuzz's creates grow cost both processes more to gzip and gunzip than to make.
      headers: { "accept-encoding": "identity", ...request.headers },
      body: request.body,
      redirect: "manual",
    });
  try {
    return await send();
  } catch (error) {
    const cause = String((error as Error).cause ?? "");
    if (!/other side closed|ECONNRESET/.test(cause)) throw error;
    tally.resent += 1;
    return send();
  }
}

async function fire(baseUrl: string, requests: FuzzRequest[]): Promise<Tally> {
  const tally: Tally = { requests: 0, resent: 0, statuses: new Map(), fiveHundreds: [], leaks: [] };
  await inFlight(CONCURRENCY, requests.length, async (i) => {
    const request = requests[i];
    const response = await sendOnce(baseUrl, request, tally);
    const text = await response.text();
    tally.requests += 1;
    tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
    if (response.status >= 500) tally.fiveHundreds.push(`${request.method} ${request.path} → ${response.status} ${text.slice(0, 200)}`);
    const everything = `${[...response.headers].join("\n")}\n${text}`;
    // A template, profile or file is what the operator puts to be served as put (README, "Secrets"):
    // a secret the fuzzer wrote into one comes back from it by design, so those answers are not searched.
    if (ECHOES_WHAT_WAS_PUT.test(request.path)) return;
    for (const secret of Object.values(SECRETS)) if (everything.includes(secret)) tally.leaks.push(`${request.method} ${request.path}`);
  });
  return tally;
}

const summary = (tally: Tally) =>
  [...tally.statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}×${count}`)
    .join(" ");

describe(`fuzz over HTTP (serverless offline, ${STORE} store, seed ${SEED})`, () => {
  let server: OfflineServer;
  beforeAll(async () => {
    // In process on either store: the fuzz tries inputs against the store's adapters, and the other
    // e2e-dynamodb suites show that functions share nothing but the store (every function in worker
    // threads). Its 16 requests at a time would start 16 workers for each of 136 functions.
    server = await startOffline({ LOG_REQUESTS: "on", DEMO_NODES: "on", OFFLINE_IN_PROCESS: "true" });
  }, 180_000);
  afterAll(() => server?.stop());

  it.each([
    ["tasks", tasksDocument, "/todo/api/v1.0", SEED],
    ["provisioning", provisioningDocument, "/api/1.1", SEED + 1],
  ] as const)("%s: no 5xx, and no known secret in any answer or log line", async (service, document, prefix, seed) => {
    const requests = requestsFor(document, prefix, seed);
    const started = Date.now();
    const tally = await fire(server.baseUrl, requests);
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `fuzz over HTTP (${STORE}), ${service}: ${tally.requests} requests in ${seconds.toFixed(1)} s, statuses ${summary(tally)}, resent after a dropped connection ${tally.resent}\n`,
    );
    expect(tally.requests).toBe(REQUESTS_PER_SERVICE);
    expect(tally.fiveHundreds).toEqual([]);
    expect(tally.resent).toBeLessThanOrEqual(REQUESTS_PER_SERVICE / 100);
    expect(tally.leaks).toEqual([]);
    const log = server.output();
    for (const secret of Object.values(SECRETS)) expect(log.includes(secret)).toBe(false);
    // The requests did reach the domain: created records and logged requests, not only refusals.
    expect(tally.statuses.get(201) ?? 0).toBeGreaterThan(0);
    expect(log.length).toBeGreaterThan(0);
  });
});
