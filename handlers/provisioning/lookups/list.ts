import { endpoint } from "../../../lib/http/endpoint";
import { listAnswer } from "../../../lib/http/paging";
import { listLookups } from "../../../lib/http/provisioning/lookups/routes";
import type { PageRequest } from "../../../lib/provisioning/listPage";
import { findLookups, findLookupsPage } from "../../../lib/provisioning/lookups/lookupService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** Every lookup, or those `?q=` finds (an IP, a MAC, a node id); a page asked for is read alone. */
export const handler = endpoint(listLookups, async ({ event, query }) => {
  const stores = await provisioningStores();
  const term = query.q?.[0];
  const lookups = { page: (request: PageRequest) => findLookupsPage(stores, term, request), all: () => findLookups(stores, term) };
  return listAnswer(event, query, lookups, (page) => page);
});
