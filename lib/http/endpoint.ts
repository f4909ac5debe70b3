import { NotFoundError } from "../errors";
import { type BootGate, passBootGate } from "./bootGate";
import type { HttpEvent, HttpHandler, HttpResult } from "./event";
import type { IdempotentRunner } from "./idempotentRequest";
import { refuseFormBody } from "./middleware/browserGuard";
import { parseJsonBody } from "./middleware/jsonBody";
import { accessOf } from "./routes/access";
import { type Endpoint, reachedByBrowsers, refusesFormBody, requiresAuth } from "./routes/endpoint";
import { httpRoute } from "./stack";
import { check, fits, type SchemaType } from "./validation";

type Part<E extends Endpoint, K extends keyof Endpoint["request"]> = E["request"][K] extends infer C ? SchemaType<C> : never;
type Body<E extends Endpoint> = E["request"] extends { bodyOptional: true } ? Part<E, "body"> | undefined : Part<E, "body">;

/** What a handler gets: the event, and its path parameters, query and body checked against the entry's schemas. */
export interface EndpointRequest<E extends Endpoint> {
  event: HttpEvent;
  params: Part<E, "params">;
  query: Part<E, "query">;
  /** Parses and checks the JSON body (400 with the contract's text); call it after any 404 check. */
  readBody: () => Promise<Body<E>>;
}

export type EndpointHandler<E extends Endpoint> = (request: EndpointRequest<E>) => Promise<HttpResult>;

/** What an endpoint needs from outside its own module, given by its handler module. */
export interface EndpointPorts {
  /**
   * How an idempotent entry carries out a request (`idempotentWith(idempotencyStore)`); given by
   * the handler so that only the bundles of idempotent entries hold the key logic.
   */
  idempotency?: IdempotentRunner;
  /** The boot routes' gate (`bootGate` of the composition root): every `auth: "boot"` entry's handler gives it. */
  bootGate?: BootGate;
}

/** Every query parameter with all its values (the raw query string parsed once). */
export function queryParameters(event: HttpEvent): Record<string, string[]> {
  // No prototype: `?valueOf=` or `?__proto__=` are parameters like any other.
  const out: Record<string, string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(event.rawQueryString ?? "")) {
    out[name] ??= [];
    out[name].push(value);
  }
  // Events without rawQueryString (hand-made ones) still carry queryStringParameters.
  if (event.rawQueryString === undefined)
    for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) out[name] ??= [value ?? ""];
  return out;
}

/** A path that names nothing: the service's 404 (Express's "Cannot GET /path" for RackHD). */
const noSuchPath = (entry: Endpoint, event: HttpEvent): NotFoundError =>
  new NotFoundError(entry.service === "tasks" ? "Not found" : `Cannot ${event.requestContext.http.method} ${event.rawPath}`);

/**
 * The Lambda handler of one registry entry: the shared middleware stack (log, CORS, errors, the
 * entry's auth rule, body limit), then path parameters (404 when they do not fit), the query
 * (400), and a body reader the handler calls when the contract's order of checks says so.
 */
export function endpoint<E extends Endpoint>(entry: E, handler: EndpointHandler<E>, ports: EndpointPorts = {}): HttpHandler {
  const { request } = entry;
  const idempotent = ports.idempotency;
  if (entry.idempotent && !idempotent) {
    throw new Error(`${entry.function} is idempotent: its handler must give endpoint() { idempotency: idempotentWith(…) }`);
  }
  const gate = ports.bootGate;
  const formsRefused = refusesFormBody(entry);
  if (entry.auth === "boot" && !gate) throw new Error(`${entry.function} is a boot route: its handler must give endpoint() { bootGate }`);
  return httpRoute(
    {
      function: entry.function,
      access: accessOf(entry),
      style: entry.service === "tasks" ? "tasks" : "rackhd",
      isProtected: (config) => requiresAuth(entry.auth, config),
      scope: entry.scope,
      audited: entry.signIn ? "every" : entry.auth === "northbound" || entry.auth === "tasks" || entry.auth === "tasksList",
      bodyLimit: !entry.fileBody,
      browser: reachedByBrowsers(entry),
    },
    async (event) => {
      const result = await answer(event);
      return event.requestContext.http.method === "HEAD" ? { ...result, body: "" } : result;
    },
  );
  async function answer(event: HttpEvent): Promise<HttpResult> {
    if (gate) await passBootGate(gate, event);
    const params = event.pathParameters ?? {};
    if (request.params && !fits(request.params, params)) throw noSuchPath(entry, event);
    if (formsRefused) refuseFormBody(event);
    const query = request.query ? check(request.query, queryParameters(event)) : {};
    let body: Promise<unknown> | undefined;
    const readBody = () => {
      body ??= parseJsonBody(event, request.bodyOptional ? "optional" : "required").then((raw) =>
        raw === undefined || !request.body ? raw : check(request.body, raw),
      );
      return body as Promise<Body<E>>;
    };
    const run = () => handler({ event, params: params as Part<E, "params">, query: query as Part<E, "query">, readBody });
    return idempotent ? idempotent(event, run) : run();
  }
}
