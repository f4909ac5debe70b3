import { endpoint } from "../../../lib/http/endpoint";
import { listAnswer, withoutPaging } from "../../../lib/http/paging";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { listNodes } from "../../../lib/http/provisioning/nodes/routes";
import type { PageRequest } from "../../../lib/provisioning/listPage";
import { listNodes as list, listNodesPage } from "../../../lib/provisioning/nodes/nodeService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** Equality filters from the query (less its paging parameters); a page asked for is read alone. */
export const handler = endpoint(listNodes, async ({ event, query }) => {
  const stores = await provisioningStores();
  const filters = withoutPaging(query);
  const nodes = {
    page: (request: PageRequest) => listNodesPage(stores, filters, request),
    all: () => list(stores, filters),
  };
  return listAnswer(event, query, nodes, (page) => page.map(presentNode));
});
