import { rackhdDocs } from "../../lib/http/console/routes";
import { endpoint } from "../../lib/http/endpoint";
import { redirect } from "../../lib/http/responses";

/** To the docs page under the API path, behind whatever prefix (a stage) precedes /docs. */
export const handler = endpoint(rackhdDocs, async ({ event }) => redirect(302, `${event.rawPath.replace(/\/docs\/?$/, "")}/api/1.1/docs`));
