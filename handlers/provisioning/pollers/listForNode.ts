import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { listNodePollers } from "../../../lib/http/provisioning/pollers/routes";
import { nodePollers } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listNodePollers, async ({ event, params, query }) =>
  pagedAnswer(event, query, await nodePollers(await provisioningStores(), params.identifier), (page) => page),
);
