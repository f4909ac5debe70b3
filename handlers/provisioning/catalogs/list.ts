import { endpoint } from "../../../lib/http/endpoint";
import { listAnswer, withoutPaging } from "../../../lib/http/paging";
import { listCatalogs } from "../../../lib/http/provisioning/catalogs/routes";
import { listCatalogs as list, listCatalogsPage } from "../../../lib/provisioning/catalogs/catalogService";
import type { PageRequest } from "../../../lib/provisioning/listPage";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** Filters on top-level fields (`?source=dmi`, `?node=<id>`); a page asked for is read alone. */
export const handler = endpoint(listCatalogs, async ({ event, query }) => {
  const stores = await provisioningStores();
  const filters = withoutPaging(query);
  const catalogs = { page: (request: PageRequest) => listCatalogsPage(stores, filters, request), all: () => list(stores, filters) };
  return listAnswer(event, query, catalogs, (page) => page);
});
