import { request } from "node:https";
import { text } from "./driver";

/** A BMC's answer: status, headers (a task monitor's Location, a session's X-Auth-Token) and JSON body. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** The body's first bytes when it is not a JSON object (an HTML page, JSON cut short): no resource can be read from it. */
  notJson?: string;
}

export type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

/** How the relay talks to one BMC for one action: its calls, its service root, and its end (the session logged out). */
export interface Connection {
  call: Call;
  /** The service root (`/redfish/v1/`): where the BMC says its systems, sessions, managers and registries are. */
  root: Record<string, unknown>;
  /** "session" (X-Auth-Token) or "basic" (a BMC with no session service, or none free). */
  auth: "session" | "basic";
  close: () => Promise<void>;
}

/** The service root, the one path every Redfish service has at the same place. */
export const SERVICE_ROOT = "/redfish/v1/";

/** A link's path (`{"@odata.id": …}`), if the value is one. */
export const linkOf = (value: unknown): string | undefined => {
  const id = (value as { "@odata.id"?: unknown } | undefined)?.["@odata.id"];
  return typeof id === "string" && id !== "" ? id : undefined;
};

/** A session service's refusal of the credentials themselves: trying them again (Basic) would count a second failed login. */
const REFUSED = new Set([400, 401, 403]);

/**
 * Opens a Redfish session where the service root says its sessions are (`Links.Sessions`), then
 * X-Auth-Token on every call, the session deleted at the end, as bmclib and sushy do: a BMC counts
 * its sessions, and a few allow only a handful, so each action opens one and closes it. A BMC with
 * no session service (no link, or 404, 405, 501), or none free (its session limit: 503), is driven
 * with Basic credentials instead. Credentials it refuses are never sent again: BMCs lock an account
 * after a few failed logins.
 */
export async function connect(config: Record<string, unknown>, base: string, timeoutMs: number): Promise<Connection> {
  const basic: Call = (method, path, body) => send(config, onBmc(path, base), method, body, timeoutMs, basicHeader(config));
  const anonymous: Call = (method, path, body) => send(config, onBmc(path, base), method, body, timeoutMs, {});
  // The service root is open to all (Redfish's rule); a BMC that asks credentials for it gets Basic's.
  const open = await anonymous("GET", SERVICE_ROOT);
  const root = open.status === 401 ? await resource(basic, SERVICE_ROOT) : resourceOf(open, SERVICE_ROOT);
  const sessions = linkOf((root.Links as Record<string, unknown> | undefined)?.Sessions);
  if (!sessions) return { call: basic, root, auth: "basic", close: async () => undefined };
  const opened = await basic("POST", sessions, { UserName: text(config, "user") ?? "", Password: text(config, "password") ?? "" });
  if (REFUSED.has(opened.status))
    throw new Error(`the BMC refused the user and password (${opened.status}: ${messageOf(opened)}); they are not tried again`);
  const token = header(opened, "x-auth-token");
  if (opened.status >= 300 || !token) return { call: basic, root, auth: "basic", close: async () => undefined };
  const session = header(opened, "location") ?? (opened.body["@odata.id"] as string | undefined);
  const call: Call = (method, path, body) => send(config, onBmc(path, base), method, body, timeoutMs, { "x-auth-token": token });
  return {
    call,
    root,
    auth: "session",
    close: async () => {
      if (session) await call("DELETE", new URL(session, base).pathname).catch(() => undefined);
    },
  };
}

/** A resource the BMC must answer (200, a JSON object), else an error in its own words, or with the first bytes of what it sent. */
export const resource = async (call: Call, path: string): Promise<Record<string, unknown>> => resourceOf(await call("GET", path), path);

/** The resource a GET of `path` answered, or the error it is. */
function resourceOf(answer: Answer, path: string): Record<string, unknown> {
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${messageOf(answer)}`);
  if (answer.notJson !== undefined)
    throw new Error(`GET ${path} answered 200 with a body that is not a JSON object: ${JSON.stringify(answer.notJson)}`);
  return answer.body;
}

/**
 * A path the BMC named (an `@odata.id`, a Location), on the BMC itself: a link to another host is
 * refused, never followed with the BMC's credentials (issue 50: an absolute `@odata.id` sent them
 * to whatever host it named).
 */
export function onBmc(path: string, base: string): URL {
  const url = new URL(path, base);
  if (url.origin !== new URL(base).origin) throw new Error(`The BMC named a link to another host (${url.origin}): not followed`);
  return url;
}

const basicHeader = (config: Record<string, unknown>) => ({
  authorization: `Basic ${Buffer.from(`${text(config, "user") ?? ""}:${text(config, "password") ?? ""}`).toString("base64")}`,
});

/** A header's value as text (the first of several). */
export function header(answer: Answer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A Redfish error's own words: its first extended message, else its message. */
export function messageOf(answer: Answer): string {
  const error = answer.body.error as { message?: string; "@Message.ExtendedInfo"?: { Message?: string }[] } | undefined;
  return error?.["@Message.ExtendedInfo"]?.[0]?.Message ?? error?.message ?? JSON.stringify(answer.body).slice(0, 300);
}

function send(
  config: Record<string, unknown>,
  url: URL,
  method: string,
  body: unknown,
  timeoutMs: number,
  auth: Record<string, string>,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        timeout: timeoutMs,
        rejectUnauthorized: config.verifySSL !== false,
        ...(text(config, "ca") && { ca: text(config, "ca") }),
        headers: {
          accept: "application/json",
          ...auth,
          ...(payload && { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const status = response.statusCode ?? 0;
          let parsed: unknown;
          try {
            parsed = raw ? JSON.parse(raw) : {};
          } catch {
            parsed = undefined;
          }
          // An empty body is a resource only where none is expected (204, an action's 200).
          const isObject = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
          if (isObject && raw !== "") return resolve({ status, headers: response.headers, body: parsed as Record<string, unknown> });
          const first = raw.slice(0, 120);
          resolve({
            status,
            headers: response.headers,
            body: raw === "" ? {} : { error: { message: `not JSON: ${first}` } },
            notJson: first,
          });
        });
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer from ${url.host} within ${timeoutMs / 1000} s`)));
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}
