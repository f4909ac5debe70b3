import { NotFoundError } from "../errors";
import type { HttpHandler, HttpEvent } from "./event";
import { queryValues } from "./event";
import type { BodyPresence } from "./middleware/jsonBody";
import { httpRoute } from "./stack";

/** RackHD mounted one router at /api/1.1, /api/current and /api/common; routes take {version}. */
export const API_VERSIONS = ["1.1", "current", "common"] as const;

const versioned = (handler: HttpHandler): HttpHandler => async (event, context) => {
  if (!(API_VERSIONS as readonly string[]).includes(event.pathParameters?.version ?? "")) {
    throw new NotFoundError(`Cannot ${event.requestContext.http.method} ${event.rawPath}`);
  }
  return handler(event, context);
};

/** Operator routes: RackHD error bodies, Basic auth when PROVISIONING_AUTH=on. */
export const northboundRoute = (options: { body?: BodyPresence }, handler: HttpHandler) =>
  httpRoute({ style: "rackhd", isProtected: (config) => config.provisioningAuth, body: options.body }, versioned(handler));

/** Routes booting machines call: never behind auth (a machine in PXE cannot log in). */
export const southboundRoute = (options: { body?: BodyPresence }, handler: HttpHandler) =>
  httpRoute({ style: "rackhd", body: options.body }, versioned(handler));

/** A path parameter API Gateway always supplies for the route. */
export const param = (event: HttpEvent, name: string): string => event.pathParameters?.[name] ?? "";

/** Every query parameter with all its values (the raw query string parsed once). */
export function queryParameters(event: HttpEvent): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(event.rawQueryString ?? "")) (out[name] ??= []).push(value);
  // Events without rawQueryString (hand-made ones) still carry queryStringParameters.
  for (const name of Object.keys(event.queryStringParameters ?? {})) out[name] ??= queryValues(event, name);
  return out;
}

/** The first value of a query parameter. */
export const query = (event: HttpEvent, name: string): string | undefined => queryValues(event, name)[0];
