import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { header } from "../../../lib/http/event";
import { leaseRelayJobs } from "../../../lib/http/provisioning/relays/routes";
import { json } from "../../../lib/http/responses";
import { leaseJobs } from "../../../lib/provisioning/relays/jobService";
import { authenticateRelay } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { PUSH } from "../../../lib/wire/relay";

export const handler = endpoint(leaseRelayJobs, async ({ event, readBody }) => {
  const stores = await provisioningStores();
  const now = new Date();
  const body = (await readBody()) ?? {};
  const relay = await authenticateRelay(stores, header(event, "authorization"), body.version, now);
  const jobs = await leaseJobs(stores, relay, body.max ?? 1, now, settings().relayLeaseMs);
  // Where the relay may hold its push connection (issue 56): it then polls only now and then.
  const push = settings().relayPushUrl;
  return json(200, jobs, push ? { [PUSH.urlHeader]: push } : {});
});
