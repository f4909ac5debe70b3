import { request } from "node:https";
import { text } from "./driver";

/** A BMC's answer: status, headers (a task monitor's Location, a session's X-Auth-Token) and JSON body. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

/** How the relay talks to one BMC for one action: its calls, and its end (the session logged out). */
export interface Connection {
  call: Call;
  /** "session" (X-Auth-Token) or "basic" (a BMC with no session service, or none free). */
  auth: "session" | "basic";
  close: () => Promise<void>;
}

const SESSIONS = "/redfish/v1/SessionService/Sessions";

/**
 * Opens a Redfish session (POST …/Sessions, then X-Auth-Token on every call, the session deleted at
 * the end), as bmclib and sushy do: a BMC counts its sessions, and a few allow only a handful, so
 * each action opens one and closes it. A BMC with no session service (404, 405, 501), or none free
 * (its session limit: 503, or an error naming the limit), is driven with Basic credentials instead.
 */
export async function connect(config: Record<string, unknown>, base: string, timeoutMs: number): Promise<Connection> {
  const basic: Call = (method, path, body) => send(config, onBmc(path, base), method, body, timeoutMs, basicHeader(config));
  const opened = await basic("POST", SESSIONS, { UserName: text(config, "user") ?? "", Password: text(config, "password") ?? "" });
  const token = header(opened, "x-auth-token");
  if (opened.status >= 300 || !token) return { call: basic, auth: "basic", close: async () => undefined };
  const session = header(opened, "location") ?? (opened.body["@odata.id"] as string | undefined);
  const call: Call = (method, path, body) => send(config, onBmc(path, base), method, body, timeoutMs, { "x-auth-token": token });
  return {
    call,
    auth: "session",
    close: async () => {
      if (session) await call("DELETE", new URL(session, base).pathname).catch(() => undefined);
    },
  };
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
          let parsed: Record<string, unknown> = {};
          try {
            parsed = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
          } catch {
            parsed = { error: { message: raw.slice(0, 300) } };
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
        });
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer from ${url.host} within ${timeoutMs / 1000} s`)));
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}
