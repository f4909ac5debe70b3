import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { listSkuNodes } from "../../../lib/http/provisioning/skus/routes";
import { skuNodes } from "../../../lib/provisioning/skus/skuService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listSkuNodes, async ({ event, params, query }) =>
  pagedAnswer(event, query, await skuNodes(await provisioningStores(), params.id), (page) => page.map(presentNode)),
);
