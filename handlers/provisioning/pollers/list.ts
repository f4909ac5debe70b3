import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer, withoutPaging } from "../../../lib/http/paging";
import { listPollers } from "../../../lib/http/provisioning/pollers/routes";
import { listPollers as list } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listPollers, async ({ event, query }) =>
  pagedAnswer(event, query, await list(await provisioningStores(), withoutPaging(query)), (page) => page),
);
