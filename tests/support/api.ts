import { join } from "node:path";
import { handler as fallback } from "../../handlers/http/fallback";
import { ROUTES } from "../../lib/http/routes";
import { methodsOf } from "../../lib/http/routes/endpoint";
import { resetProcessSingleton } from "../../lib/store/processSingleton";
import type { Answer } from "./apiGatewayEvent";
import { checkAgainstContract } from "./contract";
import { makeRouter, type RouteBinding } from "./router";

const ROOT = join(__dirname, "../..");

/** Every endpoint of the route registry, bound to the handler its entry names (as serverless.yml is). */
const bindings = (): RouteBinding[] =>
  ROUTES.flatMap((route) =>
    methodsOf(route).map((method) => ({
      method,
      path: route.path,
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      handler: require(join(ROOT, route.handler)).handler,
    })),
  );

const route = makeRouter(bindings(), fallback);

/** The whole API (both services) behind an API Gateway-like router; every answer is checked against the OpenAPI documents. */
export async function api(input: Parameters<typeof route>[0]): Promise<Answer> {
  const answer = await route(input);
  checkAgainstContract({
    method: input.method,
    path: input.path.split("?")[0],
    status: answer.status,
    contentType: answer.headers["content-type"] ?? "",
    body: answer.status === 204 ? "" : answer.body,
  });
  return answer;
}

/** A fresh container: empty stores (demo nodes come back on first use when DEMO_NODES=on). */
export function freshContainer(): void {
  resetProcessSingleton("taskStore.memory");
  resetProcessSingleton("provisioningStores.memory");
  resetProcessSingleton("idempotencyStore.memory");
  resetProcessSingleton("authAttempts.memory");
  resetProcessSingleton("apiTokens.memory");
  resetProcessSingleton("audit.memory");
}

/** A GET of the whole API, with no headers. */
export const get = (path: string): Promise<Answer> => api({ method: "GET", path, headers: {} });

/** A request with a JSON body (or none), as the provisioning clients send them. */
export const send = (method: string, path: string, body?: unknown): Promise<Answer> =>
  api({
    method,
    path,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
