import { endpoint } from "../../../lib/http/endpoint";
import { listSiteJobs } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { viewJob } from "../../../lib/provisioning/relays/job";
import { siteJobs } from "../../../lib/provisioning/relays/jobService";
import { getSite } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listSiteJobs, async ({ params }) => {
  const stores = await provisioningStores();
  await getSite(stores, params.id);
  return ok((await siteJobs(stores, params.id, new Date())).map(viewJob));
});
