import { endpoint } from "../../../lib/http/endpoint";
import { listAnswer } from "../../../lib/http/paging";
import { listSubnetAddresses } from "../../../lib/http/provisioning/subnets/routes";
import { subnetAddresses } from "../../../lib/provisioning/subnets/subnetService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** A page asked for (`?limit=N`) is read alone, in address order: a pool of 10,000 pages as cheaply as one of ten. */
export const handler = endpoint(listSubnetAddresses, async ({ event, params, query }) =>
  listAnswer(event, query, await subnetAddresses(await provisioningStores(), params.id), (page) => page),
);
