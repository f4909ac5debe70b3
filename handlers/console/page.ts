import { CONSOLE_POLICY, consoleHtml } from "../../lib/http/console/consolePage";
import { consolePage } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";

/** The page names this deployment's assets, so it is never cached; whatever precedes /console (a stage) prefixes them. */
export const handler = endpoint(consolePage, async ({ event }) => ({
  statusCode: 200,
  headers: {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-cache",
    "content-security-policy": CONSOLE_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  },
  body: consoleHtml(event.rawPath.replace(/\/console\/?$/, "")),
}));
