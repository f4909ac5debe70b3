import { endpoint } from "../../../lib/http/endpoint";
import { listAnswer } from "../../../lib/http/paging";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { listSkuNodes } from "../../../lib/http/provisioning/skus/routes";
import type { PageRequest } from "../../../lib/provisioning/listPage";
import { skuNodes, skuNodesPage } from "../../../lib/provisioning/skus/skuService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** A SKU's nodes; a page asked for is read alone. */
export const handler = endpoint(listSkuNodes, async ({ event, params, query }) => {
  const stores = await provisioningStores();
  const nodes = { page: (request: PageRequest) => skuNodesPage(stores, params.id, request), all: () => skuNodes(stores, params.id) };
  return listAnswer(event, query, nodes, (page) => page.map(presentNode));
});
