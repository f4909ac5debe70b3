import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer, withoutPaging } from "../../../lib/http/paging";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { listNodes } from "../../../lib/http/provisioning/nodes/routes";
import { listNodes as list } from "../../../lib/provisioning/nodes/nodeService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** Equality filters from the query (less its paging parameters). */
export const handler = endpoint(listNodes, async ({ event, query }) => {
  const nodes = await list(await provisioningStores(), withoutPaging(query));
  return pagedAnswer(event, query, nodes, (page) => page.map(presentNode));
});
