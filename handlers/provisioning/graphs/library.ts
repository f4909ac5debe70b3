import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { graphLibrary } from "../../../lib/http/provisioning/graphs/routes";
import { graphLibrary as library } from "../../../lib/provisioning/graphs/libraryService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(graphLibrary, async ({ event, query }) =>
  pagedAnswer(event, query, await library(await provisioningStores()), (page) => page),
);
