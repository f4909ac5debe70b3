import fc from "fast-check";
import { http, type OfflineServer, startOffline } from "../support/offlineServer";
import { type OidcProvider, startOidcProvider } from "../support/oidc";

jest.setTimeout(240_000);

/**
 * Sign-in with the company's identity provider (issue 55), over real HTTP: the tests' provider is
 * the real `oidc-provider` in a process of its own (tests/support/oidcProvider.mjs), people sign in
 * through its login page with the authorization code flow and PKCE, automation through the client
 * credentials grant, and serverless offline's functions check every token themselves
 * (OIDC_AUTHORIZER=function: serverless offline's own JWT authorizer checks no signature).
 */
describe("sign-in with an OpenID Connect provider over HTTP", () => {
  let provider: OidcProvider;
  let server: OfflineServer;
  const BASIC = `Basic ${Buffer.from("admin:admin-pw").toString("base64")}`;
  /** Every change this harness asked for (method, path, status): the audit trail must hold each. */
  const changes: { method: string; path: string; status: number }[] = [];
  const send = async (method: string, path: string, init: Parameters<typeof http>[3]) => {
    const answer = await http(server.baseUrl, method, path, init);
    if (method !== "GET") changes.push({ method, path: path.split("?")[0], status: answer.status });
    return answer;
  };
  const call = (method: string, path: string, authorization: string, body?: unknown) =>
    send(method, `/api/1.1${path}`, {
      headers: { authorization, ...(body !== undefined && { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const bearer = (token: string) => `Bearer ${token}`;
  let nodeId: string;

  beforeAll(async () => {
    provider = await startOidcProvider();
    server = await startOffline({
      DEMO_NODES: "on",
      PROVISIONING_AUTH: "on",
      AUTH_USERS: "admin:admin-pw,automation:basic-automation-pw",
      // The people's groups and automation's client, as a company maps them.
      AUTH_ROLES:
        "group:netops=admin,group:rack-1-operators=operator@rack-1,group:auditors=viewer,client:automation=operator,client:shortlived=viewer",
      OIDC_ISSUER: provider.issuer,
      OIDC_AUDIENCE: provider.api,
    });
    nodeId = (await call("GET", "/nodes", BASIC)).body[0].id;
  });
  afterAll(async () => {
    await server?.stop();
    provider?.stop();
  });

  it("lets a person in through the provider's login page with their groups' roles", async () => {
    const alice = bearer((await provider.signIn("alice")).accessToken);
    const site = await call("POST", "/sites", alice, { name: "oidc-site" });
    expect(site.status).toBe(201);

    const carol = bearer((await provider.signIn("carol")).accessToken);
    expect((await call("GET", `/nodes/${nodeId}`, carol)).status).toBe(200);
    expect((await call("PATCH", `/nodes/${nodeId}`, carol, { name: "renamed" })).status).toBe(403);

    // bob operates rack-1 only: a machine of no site of his is as absent as one that does not exist.
    const bob = bearer((await provider.signIn("bob")).accessToken);
    expect((await call("GET", `/nodes/${nodeId}`, bob)).status).toBe(404);

    // dave's group is mapped to nothing, and a signed-in user holds no role unless OIDC_DEFAULT_ROLE says.
    const dave = bearer((await provider.signIn("dave")).accessToken);
    expect((await call("GET", "/nodes", dave)).status).toBe(403);

    await expect(provider.signIn("alice", "wrong")).rejects.toThrow("Wrong user or password");
  });

  it("lets automation in with its client's own token, and records who changed what", async () => {
    const automation = bearer(await provider.clientToken("automation"));
    expect(await call("PATCH", `/nodes/${nodeId}`, automation, { name: "by-automation" })).toMatchObject({ status: 200 });
    expect((await call("POST", "/sites", automation, { name: "not-an-admin" })).status).toBe(403);
    const trail = await call("GET", `/audit?actor=client:automation&node=${nodeId}`, BASIC);
    expect(trail.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: "client:automation", verified: true, method: "PATCH", status: 200, node: nodeId }),
      ]),
    );
  });

  it("keeps Basic users and API tokens working beside the provider", async () => {
    const made = await call("POST", "/tokens", BASIC, { name: "ci", role: "viewer", expiresInDays: 1 });
    expect(made.status).toBe(201);
    expect((await call("GET", "/nodes", bearer(made.body.token))).status).toBe(200);
    // RackHD's POST /login, and its token as RackHD's clients send it.
    const login = await send("POST", "/login", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "admin-pw" }),
    });
    expect(login.status).toBe(200);
    expect((await call("GET", "/nodes", `JWT ${login.body.token}`)).status).toBe(200);
    // A person may make a token for themselves, within their own grant.
    const carol = bearer((await provider.signIn("carol")).accessToken);
    const carols = await call("POST", "/tokens", carol, { name: "carol-ci", role: "viewer", expiresInDays: 1 });
    expect(carols).toMatchObject({ status: 201, body: { owner: "oidc:carol@example.com" } });
    // Granted by her groups as her last sign-in listed them.
    expect((await call("GET", "/nodes", bearer(carols.body.token))).status).toBe(200);
    const tooMuch = await call("POST", "/tokens", carol, { name: "too-much", role: "operator", expiresInDays: 1 });
    expect(tooMuch).toMatchObject({ status: 400, body: { message: expect.stringContaining("within") } });
  });

  it("keeps three kinds of caller apart: the provider's client automation is not the Basic user automation", async () => {
    const basicAutomation = `Basic ${Buffer.from("automation:basic-automation-pw").toString("base64")}`;
    const theirs = await call("POST", "/tokens", basicAutomation, { name: "basic-ci", role: "viewer", expiresInDays: 1 });
    expect(theirs).toMatchObject({ status: 201, body: { owner: "automation" } });
    const client = bearer(await provider.clientToken("automation"));
    const listed = await call("GET", "/tokens", client);
    expect(listed.status).toBe(200);
    expect(listed.body.map((token: { id: string }) => token.id)).not.toContain(theirs.body.id);
    expect((await call("DELETE", `/tokens/${theirs.body.id}`, client)).status).toBe(404);
    expect((await call("GET", "/nodes", bearer(theirs.body.token))).status).toBe(200);
  });

  it("refuses another application's token, an ID token, an expired one and a forged one, each recorded", async () => {
    const expiring = await provider.clientToken("shortlived");
    const billing = await provider.clientToken("billing");
    const { accessToken, idToken } = await provider.signIn("alice");
    const [header, payload, signature] = accessToken.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    // alice's token made an admin of every group she might wish for, with her signature kept.
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, groups: ["netops", "root"] })).toString("base64url")}.${signature}`;
    for (const token of [billing, idToken, forged]) expect((await call("GET", "/nodes", bearer(token))).status).toBe(401);
    // The short-lived client's tokens live 2 s; the functions allow 5 s of clock difference.
    expect((await call("GET", "/nodes", bearer(expiring))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect((await call("GET", "/nodes", bearer(expiring))).status).toBe(401);
    const trail = await call("GET", "/audit", BASIC);
    const refused = trail.body.filter((record: { status: number; verified: boolean }) => record.status === 401 && !record.verified);
    expect(refused.map((record: { actor: string }) => record.actor)).toEqual(expect.arrayContaining(["alice", "shortlived", "billing"]));
  });

  it("accounts for every change this harness made in the audit trail (who, what, its answer)", async () => {
    expect(changes.length).toBeGreaterThanOrEqual(8);
    const trail = await call("GET", "/audit?limit=500", BASIC);
    const recorded = trail.body.map(
      (record: { method: string; path: string; status: number }) => `${record.method} ${record.path} ${record.status}`,
    );
    expect(
      changes.map((change) => `${change.method} ${change.path} ${change.status}`).filter((change) => !recorded.includes(change)),
    ).toEqual([]);
  });

  // Last: its failures hold this address (the sign-in limiter), after which every answer is 429.
  it("answers the fuzzer's altered tokens 401 or 429, never a 2xx or a 5xx", async () => {
    const genuine = await provider.clientToken("automation");
    const [header, payload, signature] = genuine.split(".");
    const json = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString());
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const token = fc.oneof(
      // A character changed anywhere (but the signature's last, whose low bits may not count).
      fc
        .tuple(fc.nat(genuine.length - 2), fc.constantFrom(..."Aa0-_."))
        .map(([at, c]) => `${genuine.slice(0, at)}${c}${genuine.slice(at + 1)}`),
      // Claims rewritten under the genuine signature.
      fc
        .record(
          { aud: fc.constantFrom("urn:rackhd:api", "x"), exp: fc.integer(), sub: fc.string(), groups: fc.array(fc.string()) },
          { requiredKeys: [] },
        )
        .map((changed) => `${header}.${encode({ ...json(payload), ...changed, sub: changed.sub ?? "fuzzed" })}.${signature}`),
      // Another algorithm or key in the header: none, HMAC with the public key's id, an unknown key.
      fc
        .constantFrom({ alg: "none" }, { alg: "HS256" }, { kid: "other" }, { alg: "RS256", jku: "http://127.0.0.1:1/keys" })
        .map((changed) => `${encode({ ...json(header), ...changed })}.${payload}.${changed.alg === "none" ? "" : signature}`),
      fc.string({ maxLength: 60 }).map((text) => `${encode({ alg: "RS256" })}.${encode(text)}.${text}`),
    );
    const route = fc.constantFrom(
      ["GET", "/nodes"],
      ["GET", `/nodes/${nodeId}`],
      ["PATCH", `/nodes/${nodeId}`],
      ["POST", "/sites"],
      ["GET", "/audit"],
    );
    // A "change" to the character already there is the genuine token: not an altered one.
    const samples = fc.sample(
      fc.tuple(
        route,
        token.filter((each) => each !== genuine),
      ),
      { seed: 20261128, numRuns: 200 },
    );
    const statuses = new Map<number, number>();
    for (const [[method, path], each] of samples) {
      const answer = await call(method, path, bearer(each), method === "GET" ? undefined : { name: "fuzzed" });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    process.stdout.write(`OIDC token fuzz: ${samples.length} requests, statuses ${JSON.stringify([...statuses])}\n`);
    expect([...statuses.keys()].every((status) => status === 401 || status === 429)).toBe(true);
    // Refused for the token itself until the address was held (30 failures in 5 minutes, with the earlier tests').
    expect(statuses.get(401)).toBeGreaterThanOrEqual(20);
  });
});
