import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer, withoutPaging } from "../../../lib/http/paging";
import { listCatalogs } from "../../../lib/http/provisioning/catalogs/routes";
import { listCatalogs as list } from "../../../lib/provisioning/catalogs/catalogService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listCatalogs, async ({ event, query }) =>
  pagedAnswer(event, query, await list(await provisioningStores(), withoutPaging(query)), (page) => page),
);
