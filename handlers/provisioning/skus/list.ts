import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer, withoutPaging } from "../../../lib/http/paging";
import { presentSku } from "../../../lib/http/presenters/provisioningPresenters";
import { listSkus } from "../../../lib/http/provisioning/skus/routes";
import { listSkus as list } from "../../../lib/provisioning/skus/skuService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listSkus, async ({ event, query }) =>
  pagedAnswer(event, query, await list(await provisioningStores(), withoutPaging(query)), (page) => page.map(presentSku)),
);
