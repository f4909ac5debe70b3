import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { listSubnets } from "../../../lib/http/provisioning/subnets/routes";
import { listSubnets as list } from "../../../lib/provisioning/subnets/subnetService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** `?site=<id>`: one site's subnets (a site has a few; the list is read whole). */
export const handler = endpoint(listSubnets, async ({ event, query }) =>
  pagedAnswer(event, query, await list(await provisioningStores(), query.site?.[0]), (page) => page),
);
