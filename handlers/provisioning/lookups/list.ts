import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { listLookups } from "../../../lib/http/provisioning/lookups/routes";
import { findLookups } from "../../../lib/provisioning/lookups/lookupService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listLookups, async ({ event, query }) =>
  pagedAnswer(event, query, await findLookups(await provisioningStores(), query.q?.[0]), (page) => page),
);
