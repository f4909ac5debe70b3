import type middy from "@middy/core";
import { parseBasicAuth } from "../../auth/basicAuth";
import { type Settings, settings } from "../../config/settings";
import { UnauthorizedError } from "../../errors";
import { logLine } from "../../logger";
import { type HttpEvent, type HttpResult, header } from "../event";

let warnedNoUsers = false;

/**
 * HTTP Basic auth on the routes for which `isProtected(settings)` holds. Runs before the body is
 * read, so 401/403 comes before 404 and 400. With auth on and no users configured, nobody gets in.
 */
export function basicAuth(isProtected: (config: Settings) => boolean): middy.MiddlewareObj<HttpEvent, HttpResult> {
  return {
    before: (request) => {
      const config = settings();
      if (!isProtected(config)) return;
      if (config.authUsers.size === 0) {
        if (!warnedNoUsers) {
          logLine({ level: "error", msg: "auth is on but AUTH_USERS names no user: every protected request is refused" });
          warnedNoUsers = true;
        }
        throw new UnauthorizedError("Unauthorized access");
      }
      const credentials = parseBasicAuth(header(request.event, "authorization"));
      if (!credentials || !config.authUsers.verify(credentials.user, credentials.password)) {
        throw new UnauthorizedError("Unauthorized access");
      }
    },
  };
}
