import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { listNodeCatalogs } from "../../../lib/http/provisioning/catalogs/routes";
import { nodeCatalogs } from "../../../lib/provisioning/catalogs/catalogService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listNodeCatalogs, async ({ event, params, query }) =>
  pagedAnswer(event, query, await nodeCatalogs(await provisioningStores(), params.identifier), (page) => page),
);
