import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

/** A process's first line on stdout, within `ms`. */
function firstLine(stream: Readable, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stream });
    const timer = setTimeout(() => reject(new Error(`no line within ${ms} ms`)), ms);
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line);
      lines.close();
    });
    lines.once("close", () => reject(new Error("it ended")));
  });
}

/** What the tests' provider (tests/support/oidcProvider.mjs) says of itself once it listens. */
export interface OidcProviderInfo {
  issuer: string;
  /** The audience of the service's tokens (OIDC_AUDIENCE), and another application's. */
  api: string;
  otherApi: string;
  users: Record<string, { password: string; email: string; groups: string[] }>;
  clients: Record<"automation" | "shortlived" | "billing", { secret: string }>;
}

export interface OidcProvider extends OidcProviderInfo {
  /** An access token of the client credentials grant (automation), for `resource`. */
  clientToken(client: keyof OidcProviderInfo["clients"], resource?: string): Promise<string>;
  /** A person's sign-in through the provider's login page: the authorization code flow with PKCE, as the console runs it. */
  signIn(user: string, password?: string, resource?: string): Promise<{ accessToken: string; idToken: string }>;
  /** A browser at the provider, from an authorization URL a client made to where the provider sends it back (`redirectPrefix`, with the code). */
  loginAt(authorizationUrl: string, user: string, password?: string, redirectPrefix?: string): Promise<URL>;
  stop(): void;
}

export const CONSOLE_CLIENT = "rackhd-console";
const REDIRECT_URI = "http://127.0.0.1/console/callback";

/** A browser's cookie jar, enough for one provider's session cookies. */
class Cookies {
  private readonly jar = new Map<string, string>();
  take(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const equals = pair.indexOf("=");
      this.jar.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
  }
  get header(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/** Starts the provider in a process of its own, the console's client allowed to send the browser back to `redirectUris` too (as a company's identity provider runs apart from the service). */
export async function startOidcProvider(redirectUris: readonly string[] = []): Promise<OidcProvider> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, "oidcProvider.mjs"), "0"], {
    env: { ...process.env, OIDC_REDIRECT_URIS: [REDIRECT_URI, ...redirectUris].join(","), NODE_ENV: "test" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errors = `${errors}${chunk}`.slice(-4000);
  });
  const line = await firstLine(child.stdout!, 30_000).catch((error: Error) => {
    child.kill();
    throw new Error(`the OIDC provider did not start: ${error.message}\n${errors}`);
  });
  const info = JSON.parse(line) as OidcProviderInfo;

  async function tokenRequest(form: Record<string, string>, basic?: [string, string]): Promise<Record<string, string>> {
    const response = await fetch(`${info.issuer}/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(basic && { authorization: `Basic ${Buffer.from(`${basic[0]}:${basic[1]}`).toString("base64")}` }),
      },
      body: new URLSearchParams(form),
    });
    const body = (await response.json()) as Record<string, string>;
    if (!response.ok) throw new Error(`token request: ${response.status} ${JSON.stringify(body)}`);
    return body;
  }

  /**
   * A browser at the provider: from an authorization URL through the login page, as `user`, to the
   * URL the provider sends the browser back to (`redirectPrefix` and the code); its cookies kept.
   */
  async function loginAt(authorizationUrl: string, user: string, password: string, redirectPrefix: string): Promise<URL> {
    const cookies = new Cookies();
    const go = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(new URL(url, info.issuer), {
        ...init,
        redirect: "manual",
        headers: { ...(init.headers as Record<string, string>), cookie: cookies.header },
      });
      cookies.take(response);
      return response;
    };
    const toLogin = await go(authorizationUrl);
    const loginPage = toLogin.headers.get("location");
    if (!loginPage) throw new Error(`the provider's /auth answered ${toLogin.status}: ${await toLogin.text()}`);
    const form = await go(loginPage);
    const action = /action="([^"]+)"/.exec(await form.text())?.[1];
    if (!action) throw new Error(`no login form at ${loginPage}`);
    const submitted = await go(action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: user, password }),
    });
    if (submitted.status === 200) throw new Error(`sign-in refused: ${/role="alert">([^<]*)/.exec(await submitted.text())?.[1]}`);
    let next = submitted.headers.get("location");
    // Back to /auth, which (the grant made at sign-in) sends the browser to the client with a code.
    while (next && !next.startsWith(redirectPrefix)) next = (await go(next)).headers.get("location");
    return new URL(next ?? "");
  }

  async function signIn(user: string, password = info.users[user]?.password ?? "", resource = info.api) {
    const verifier = base64url(randomBytes(32));
    const state = base64url(randomBytes(12));
    const authorize = new URL(`${info.issuer}/auth`);
    authorize.search = new URLSearchParams({
      client_id: CONSOLE_CLIENT,
      response_type: "code",
      redirect_uri: REDIRECT_URI,
      scope: "openid email groups",
      code_challenge: base64url(createHash("sha256").update(verifier).digest()),
      code_challenge_method: "S256",
      resource,
      state,
    }).toString();
    const back = await loginAt(authorize.href, user, password, REDIRECT_URI);
    if (back.searchParams.get("state") !== state) throw new Error(`the provider sent back ${back.href}`);
    const tokens = await tokenRequest({
      grant_type: "authorization_code",
      code: back.searchParams.get("code") ?? "",
      redirect_uri: REDIRECT_URI,
      client_id: CONSOLE_CLIENT,
      code_verifier: verifier,
      resource,
    });
    return { accessToken: tokens.access_token, idToken: tokens.id_token };
  }

  return {
    ...info,
    signIn,
    loginAt: (url, user, password = info.users[user]?.password ?? "", redirectPrefix = REDIRECT_URI) =>
      loginAt(url, user, password, redirectPrefix),
    clientToken: async (client, resource = client === "billing" ? info.otherApi : info.api) =>
      (await tokenRequest({ grant_type: "client_credentials", resource, scope: "api" }, [client, info.clients[client].secret]))
        .access_token,
    stop: () => {
      child.kill();
    },
  };
}
