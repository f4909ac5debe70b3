import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { header } from "../../../lib/http/event";
import { leaseRelayJobs } from "../../../lib/http/provisioning/relays/routes";
import { json, ok } from "../../../lib/http/responses";
import { leaseJobs, nextLeaseEnd } from "../../../lib/provisioning/relays/jobService";
import { authenticateRelay } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { PUSH } from "../../../lib/wire/relay";

export const handler = endpoint(leaseRelayJobs, async ({ event, readBody }) => {
  const stores = await provisioningStores();
  const now = new Date();
  const body = (await readBody()) ?? {};
  const relay = await authenticateRelay(stores, header(event, "authorization"), body.version, now);
  const jobs = await leaseJobs(stores, relay, body.max ?? 1, now, settings().relayLeaseMs);
  // Where the relay may hold its push connection (issue 56): it then polls only now and then, and
  // so is told when a job another relay holds comes back (nothing is pushed then).
  const push = settings().relayPushUrl;
  if (!push) return ok(jobs);
  const ends = jobs.length === 0 ? await nextLeaseEnd(stores, relay.site, now) : undefined;
  return json(200, jobs, {
    [PUSH.urlHeader]: push,
    ...(ends && { [PUSH.leaseEndsHeader]: String(ends.getTime() - now.getTime()) }),
  });
});
