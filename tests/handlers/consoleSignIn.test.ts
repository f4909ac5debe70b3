import { reloadSettings } from "../../lib/config/settings";
import { api, freshContainer } from "../support/api";
import { type OidcProvider, startOidcProvider } from "../support/oidc";

/**
 * Issue 55: the console's sign-in through the real handler stacks (API Gateway v2 events) against
 * the real OpenID provider (tests/support/oidcProvider.mjs, a Node process: no Java, started in
 * well under a second; the one server this tier starts, because nothing else can answer the
 * authorization code flow truly). The browser's part is the browser tier's
 * (tests/browser/consoleSignIn.test.ts); here, every answer of the service's side of it.
 */
const HOST = "abc123.execute-api.us-east-1.amazonaws.com";
const CALLBACK = `https://${HOST}/console/callback`;
let provider: OidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider([CALLBACK]);
  Object.assign(process.env, {
    PROVISIONING_AUTH: "on",
    DEMO_NODES: "on",
    AUTH_ROLES: "group:netops=admin,group:auditors=viewer",
    OIDC_ISSUER: provider.issuer,
    OIDC_AUDIENCE: provider.api,
    OIDC_CONSOLE_CLIENT: "rackhd-console",
    OIDC_CONSOLE_SCOPE: "openid email groups",
  });
  reloadSettings();
  freshContainer();
}, 30_000);
afterAll(() => {
  provider?.stop();
  for (const name of [
    "PROVISIONING_AUTH",
    "DEMO_NODES",
    "AUTH_ROLES",
    "OIDC_ISSUER",
    "OIDC_AUDIENCE",
    "OIDC_CONSOLE_CLIENT",
    "OIDC_CONSOLE_SCOPE",
  ])
    delete process.env[name];
  reloadSettings();
});

/** The cookie a Set-Cookie line sets, as a browser sends it back. */
const sent = (setCookie: string) => setCookie.split(";")[0];

/** Starts a sign-in at the service and signs in at the provider: the callback's URL and the cookie the browser carries to it. */
async function signInAs(user: string): Promise<{ callback: URL; carried: string }> {
  const started = await api({ method: "GET", path: "/console/signin", headers: {} });
  expect(started.status).toBe(302);
  const location = new URL(started.headers.location);
  expect(location.origin).toBe(provider.issuer);
  expect(location.searchParams.get("code_challenge_method")).toBe("S256");
  expect(location.searchParams.get("redirect_uri")).toBe(CALLBACK);
  const [setCookie] = started.cookies ?? [];
  expect(setCookie).toMatch(/^rhd_signin=[\w-]+\.[\w-]+; Path=\/console\/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
  return { callback: await provider.loginAt(location.href, user, undefined, CALLBACK), carried: sent(setCookie) };
}

const callbackPath = (url: URL) => `${url.pathname}${url.search}`;

describe("the console's sign-in, the service's side", () => {
  it("exchanges the provider's code for an HttpOnly session the API takes, and records the sign-in", async () => {
    const { callback, carried } = await signInAs("alice");
    const back = await api({ method: "GET", path: callbackPath(callback), headers: { cookie: carried } });
    expect(back).toMatchObject({ status: 302, headers: expect.objectContaining({ location: "/console" }) });
    const [session, cleared] = back.cookies ?? [];
    // An opaque session of the service's, not the provider's token.
    expect(session).toMatch(/^rhd_session=rhdt_[\w-]+; Path=\/; Max-Age=(59\d|600); HttpOnly; SameSite=Strict; Secure$/);
    expect(cleared).toBe("rhd_signin=; Path=/console/callback; Max-Age=0; HttpOnly; SameSite=Lax; Secure");

    const cookie = sent(session);
    expect(await api({ method: "GET", path: "/console/session", headers: { cookie } })).toMatchObject({
      body: { user: "oidc:alice@example.com", provider: true },
    });
    expect(await api({ method: "GET", path: "/api/1.1/nodes", headers: { cookie } })).toMatchObject({ status: 200 });
    // A change with the cookie: from the console's own origin it reaches the handler (404: no such node); from another, 403.
    const change = (origin: string) =>
      api({
        method: "PATCH",
        path: "/api/1.1/nodes/000000000000000000000000",
        headers: { cookie, origin, "content-type": "application/json" },
        body: '{"name":"x"}',
      });
    expect((await change(`https://${HOST}`)).status).toBe(404);
    expect(await change("https://evil.example.com")).toMatchObject({
      status: 403,
      body: { message: expect.stringContaining("another site's page") },
    });
    const trail = await api({ method: "GET", path: "/api/1.1/audit?actor=oidc:alice@example.com", headers: { cookie } });
    expect(trail.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "consoleCallback", status: 302, verified: true })]),
    );
    // The foreign page's change was refused before its credentials were read: recorded, its actor not verified.
    const every = await api({ method: "GET", path: "/api/1.1/audit", headers: { cookie } });
    expect(every.body).toEqual(expect.arrayContaining([expect.objectContaining({ action: "patchNode", status: 403, verified: false })]));
  });

  it("refuses a code used twice, a state that is not the sign-in's, and a denied sign-in (400), setting no session", async () => {
    const { callback, carried } = await signInAs("carol");
    expect((await api({ method: "GET", path: callbackPath(callback), headers: { cookie: carried } })).status).toBe(302);
    const replayed = await api({ method: "GET", path: callbackPath(callback), headers: { cookie: carried } });
    expect(replayed).toMatchObject({ status: 400, body: { message: expect.stringContaining("could not be finished") } });
    expect(replayed.cookies).toBeUndefined();

    const other = await signInAs("carol");
    const [state] = other.carried.replace("rhd_signin=", "").split(".");
    const swapped = await api({ method: "GET", path: callbackPath(other.callback), headers: { cookie: `rhd_signin=${state}x.verifier` } });
    expect(swapped).toMatchObject({ status: 400 });
    const denied = await api({
      method: "GET",
      path: "/console/callback?error=access_denied&state=s",
      headers: { cookie: "rhd_signin=s.v" },
    });
    expect(denied).toMatchObject({ status: 400, body: { message: "The identity provider did not sign you in: access_denied" } });
  });

  it("answers a session cookie that is not a session of the service's as no session: the provider's own token too", async () => {
    expect(await api({ method: "GET", path: "/console/session", headers: { cookie: "rhd_session=a.b.c" } })).toMatchObject({
      body: { user: null },
    });
    expect(await api({ method: "GET", path: "/api/1.1/nodes", headers: { cookie: "rhd_session=a.b.c" } })).toMatchObject({ status: 401 });
    const jwt = (await provider.signIn("alice")).accessToken;
    expect(await api({ method: "GET", path: "/console/session", headers: { cookie: `rhd_session=${jwt}` } })).toMatchObject({
      body: { user: null },
    });
    expect(await api({ method: "GET", path: "/api/1.1/nodes", headers: { cookie: `rhd_session=${jwt}` } })).toMatchObject({ status: 401 });
  });

  it("ends the session at sign-out: its cookie's value, kept or copied, opens nothing after", async () => {
    const { callback, carried } = await signInAs("alice");
    const back = await api({ method: "GET", path: callbackPath(callback), headers: { cookie: carried } });
    const cookie = sent((back.cookies ?? [])[0]);
    expect((await api({ method: "GET", path: "/api/1.1/nodes", headers: { cookie } })).status).toBe(200);
    const out = await api({ method: "POST", path: "/console/signout", headers: { cookie, origin: `https://${HOST}` } });
    expect(out.status).toBe(204);
    expect(out.cookies).toEqual([expect.stringMatching(/^rhd_session=; Path=\/; Max-Age=0/)]);
    expect((await api({ method: "GET", path: "/api/1.1/nodes", headers: { cookie } })).status).toBe(401);
    expect((await api({ method: "GET", path: "/console/session", headers: { cookie } })).body).toMatchObject({ user: null });
    const token = cookie.replace("rhd_session=", "");
    expect((await api({ method: "GET", path: "/api/1.1/nodes", headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });
});
