import type { Context } from "aws-lambda";
import type { HttpEvent, HttpResult } from "../../lib/http/event";
import { type Answer, type EventInput, invoke } from "./apiGatewayEvent";

type Invocable = (event: HttpEvent, context: Context) => Promise<HttpResult>;

export interface RouteBinding {
  method: string;
  path: string;
  handler: Invocable;
}

/**
 * API Gateway's precedence among path templates that match: literal segments sort before
 * parameters, segment by segment ("/workflows/library" before "/workflows/{id}").
 */
export const specificity = (template: string): string =>
  template
    .split("/")
    .map((part) => (part.startsWith("{") ? "1" : "0"))
    .join("");

/**
 * Routes a request the way API Gateway's HTTP API does: of the routes whose method and path
 * template match, the most specific (a literal segment beats a `{name}` one, from the left), with
 * `{name}` segments as path parameters; otherwise the `$default` handler.
 */
export function makeRouter(routes: RouteBinding[], fallback: Invocable) {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const source = route.path
      .split("/")
      .map((part) => {
        const param = /^\{(.+?)(\+)?\}$/.exec(part);
        if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(param[1]);
        return param[2] ? "(.+)" : "([^/]+)";
      })
      .join("/");
    return { ...route, names, rank: specificity(route.path), regex: new RegExp(`^${source}$`) };
  });
  compiled.sort((a, b) => a.rank.localeCompare(b.rank));
  return async (input: Omit<EventInput, "route" | "pathParameters">): Promise<Answer> => {
    const rawPath = input.path.split("?")[0];
    for (const route of compiled) {
      const match = route.method === input.method ? route.regex.exec(rawPath) : null;
      if (!match) continue;
      const pathParameters = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
      return invoke(route.handler, { ...input, route: route.path, pathParameters });
    }
    return invoke(fallback, { ...input, route: "$default" });
  };
}
