import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { header } from "../../../lib/http/event";
import { leaseRelayJobs } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { leaseJobs } from "../../../lib/provisioning/relays/jobService";
import { authenticateRelay } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(leaseRelayJobs, async ({ event, readBody }) => {
  const stores = await provisioningStores();
  const now = new Date();
  const body = (await readBody()) ?? {};
  const relay = await authenticateRelay(stores, header(event, "authorization"), body.version, now);
  return ok(await leaseJobs(stores, relay, body.max ?? 1, now, settings().relayLeaseMs));
});
