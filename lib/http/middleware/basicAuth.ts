import type middy from "@middy/core";
import { parseBasicAuth } from "../../auth/basicAuth";
import { parseUsers, type UserTable } from "../../auth/users";
import { type Settings, settings } from "../../config/settings";
import { UnauthorizedError, UnavailableError } from "../../errors";
import { logLine } from "../../logger";
import { type HttpEvent, type HttpResult, header } from "../event";

let warnedNoUsers = false;

/** How long a container keeps the user list read from SSM: a rotation reaches every container within it. */
const PARAMETER_CACHE_MS = 5 * 60 * 1000;

let parameterReader: { before?: (request: never) => unknown } | undefined;
let parsed: { raw: string; users: UserTable } | undefined;

/**
 * AUTH_USERS_PARAMETER: the user list from SSM Parameter Store (a SecureString, decrypted), read by
 * the official @middy/ssm middleware and cached per container. Loaded only when the setting is on,
 * so other containers never load the SSM client. A failed read is a 503: nobody is let in.
 */
async function usersFromParameter(request: middy.Request<HttpEvent, HttpResult>, name: string): Promise<UserTable> {
  if (!parameterReader) {
    const { default: ssm } = await import("@middy/ssm");
    parameterReader = ssm({ fetchData: { authUsers: name }, setToContext: true, cacheKey: "auth-users", cacheExpiry: PARAMETER_CACHE_MS });
  }
  const reader = parameterReader;
  try {
    await reader.before?.(request as never);
  } catch (error) {
    throw new UnavailableError("The user list cannot be read now", 5, `SSM parameter ${name}: ${(error as Error).message}`);
  }
  const raw = String((request.context as unknown as { authUsers?: unknown }).authUsers ?? "");
  if (parsed?.raw !== raw) parsed = { raw, users: parseUsers(raw) };
  return parsed.users;
}

/**
 * HTTP Basic auth on the routes for which `isProtected(settings)` holds. Runs before the body is
 * read, so 401/403 comes before 404 and 400. With auth on and no users configured, nobody gets in.
 */
export function basicAuth(isProtected: (config: Settings) => boolean): middy.MiddlewareObj<HttpEvent, HttpResult> {
  return {
    before: async (request) => {
      const config = settings();
      if (!isProtected(config)) return;
      const users = config.authUsersParameter ? await usersFromParameter(request, config.authUsersParameter) : config.authUsers;
      if (users.size === 0) {
        if (!warnedNoUsers) {
          logLine({ level: "error", msg: "auth is on but AUTH_USERS names no user: every protected request is refused" });
          warnedNoUsers = true;
        }
        throw new UnauthorizedError("Unauthorized access");
      }
      const credentials = parseBasicAuth(header(request.event, "authorization"));
      if (!credentials || !users.verify(credentials.user, credentials.password)) {
        throw new UnauthorizedError("Unauthorized access");
      }
    },
  };
}
