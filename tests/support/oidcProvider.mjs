// The tests' OpenID Connect provider (issue 55): the real `oidc-provider` (panva's, certified by the
// OpenID Foundation), started in a process of its own as a company's identity provider is. It signs
// only what its own flows grant: a user signs in with a password through its login page (the
// authorization code flow with PKCE), automation through the client credentials grant. Nothing
// here signs a token on request.
//
//   node tests/support/oidcProvider.mjs [port]   (port 0 or none: a free one)
//
// Prints one JSON line on stdout once it listens: { issuer, api, users, clients }.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { errors } from "oidc-provider";

/** The audience (RFC 8707 resource) of the service's tokens, and another application's. */
const API = "urn:rackhd:api";
const OTHER_API = "urn:billing:api";

/** The directory: the tests sign in as these people, whose groups AUTH_ROLES maps. */
const USERS = {
  alice: { password: "alice-password", email: "alice@example.com", groups: ["netops"] },
  bob: { password: "bob-password", email: "bob@example.com", groups: ["rack-1-operators"] },
  carol: { password: "carol-password", email: "carol@example.com", groups: ["auditors"] },
  dave: { password: "dave-password", email: "dave@example.com", groups: ["sales"] },
};

/** Automation's clients: one whose tokens live 2 s (the expiry tests), one for another application only. */
const CLIENTS = {
  automation: { secret: randomBytes(24).toString("base64url"), ttl: 600, resources: [API] },
  shortlived: { secret: randomBytes(24).toString("base64url"), ttl: 2, resources: [API] },
  billing: { secret: randomBytes(24).toString("base64url"), ttl: 600, resources: [OTHER_API] },
};

const port = Number(process.argv[2] ?? 0);
const redirectUris = (process.env.OIDC_REDIRECT_URIS ?? "http://127.0.0.1/console/callback").split(",");

const server = createServer();
await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const { privateKey } = await generateKeyPair("RS256", { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString("hex"), alg: "RS256", use: "sig" };

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: "rackhd-console",
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      redirect_uris: redirectUris,
    },
    ...Object.entries(CLIENTS).map(([id, client]) => ({
      client_id: id,
      client_secret: client.secret,
      grant_types: ["client_credentials"],
      response_types: [],
      redirect_uris: [],
    })),
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString("base64url")] },
  scopes: ["openid", "email", "groups", "offline_access", "api"],
  claims: { openid: ["sub"], email: ["email", "email_verified"], groups: ["groups"] },
  findAccount: (_ctx, id) =>
    USERS[id] && {
      accountId: id,
      claims: () => ({ sub: id, email: USERS[id].email, email_verified: true, groups: USERS[id].groups }),
    },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: (_ctx, _client, oneOf) => oneOf ?? API,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resource, client) => {
        const automation = CLIENTS[client.clientId];
        if (![API, OTHER_API].includes(resource) || (automation && !automation.resources.includes(resource)))
          throw new errors.InvalidTarget();
        return {
          scope: "api",
          audience: resource,
          accessTokenFormat: "jwt",
          accessTokenTTL: automation?.ttl ?? 600,
          jwt: { sign: { alg: "RS256" } },
        };
      },
    },
  },
  // A user's access token carries their e-mail and groups, as Keycloak's, Okta's and Cognito's do.
  extraTokenClaims: (_ctx, token) => {
    const user = token.accountId && USERS[token.accountId];
    return user ? { email: user.email, email_verified: true, groups: user.groups } : undefined;
  },
  // The console is the company's own application: no consent page, its grant is made at sign-in.
  loadExistingGrant: async (ctx) => {
    const existing = ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (existing) return ctx.oidc.provider.Grant.find(existing);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope("openid email groups offline_access");
    grant.addOIDCClaims(["email", "email_verified", "groups"]);
    grant.addResourceScope(API, "api");
    await grant.save();
    return grant;
  },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  pkce: { required: () => true },
  ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600, RefreshToken: 3600 },
});
// No stack traces on stdout: the tests read its first line.
provider.on("server_error", (_ctx, error) => console.error(`oidc-provider: ${error.message}`));

const htmlText = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid, message = "") {
  return `<!doctype html><html><head><title>Sign in</title></head><body>
<h1>Sign in to the company</h1>${message && `<p role="alert">${htmlText(message)}</p>`}
<form method="post" action="/interaction/${htmlText(uid)}/login">
<label>User <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form></body></html>`;
}

async function formOf(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** The login page: a password checked against the directory, as a company's sign-in page does. */
async function interaction(req, res, uid, action) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid || details.prompt.name !== "login") throw new errors.SessionNotFound("interaction");
  if (req.method === "GET" && !action) {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    return res.end(loginPage(uid));
  }
  if (req.method === "POST" && action === "login") {
    const form = await formOf(req);
    const username = form.get("username") ?? "";
    const user = Object.hasOwn(USERS, username) ? USERS[username] : undefined;
    if (!user || user.password !== form.get("password")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(loginPage(uid, "Wrong user or password"));
    }
    return provider.interactionFinished(req, res, { login: { accountId: username } }, { mergeWithLastSubmission: false });
  }
  res.writeHead(405).end();
}

const callback = provider.callback();
server.on("request", (req, res) => {
  const match = /^\/interaction\/([\w-]+)(?:\/(\w+))?$/.exec(new URL(req.url, issuer).pathname);
  if (!match) return callback(req, res);
  interaction(req, res, match[1], match[2]).catch((error) => {
    if (!res.headersSent) res.writeHead(400, { "content-type": "text/plain" });
    res.end(String(error.message));
  });
});

console.log(
  JSON.stringify({
    issuer,
    api: API,
    otherApi: OTHER_API,
    users: Object.fromEntries(
      Object.entries(USERS).map(([name, user]) => [name, { password: user.password, email: user.email, groups: user.groups }]),
    ),
    clients: Object.fromEntries(Object.entries(CLIENTS).map(([id, client]) => [id, { secret: client.secret }])),
  }),
);
