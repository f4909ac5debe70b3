import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import type { taskLibrary, taskList } from "../../../lib/http/provisioning/graphs/routes";
import { taskLibrary as library } from "../../../lib/provisioning/graphs/libraryService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** The task library, in pages: the one body of RackHD's two routes that answer it. */
export const taskDefinitionsOf = (entry: typeof taskList | typeof taskLibrary) =>
  endpoint(entry, async ({ event, query }) => pagedAnswer(event, query, await library(await provisioningStores()), (page) => page));
