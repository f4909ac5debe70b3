import { endpoint } from "../../../lib/http/endpoint";
import { header } from "../../../lib/http/event";
import { reportRelayJob } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { reportJobResult } from "../../../lib/provisioning/relayResults/reportJobResult";
import { viewJob } from "../../../lib/provisioning/relays/job";
import { authenticateRelay } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(reportRelayJob, async ({ event, params, readBody }) => {
  const stores = await provisioningStores();
  const now = new Date();
  const relay = await authenticateRelay(stores, header(event, "authorization"), undefined, now);
  return ok(viewJob(await reportJobResult(stores, relay, params.id, await readBody(), now)));
});
