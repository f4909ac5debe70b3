import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { profileLibrary } from "../../../lib/http/provisioning/library/routes";
import { libraryEntries } from "../../../lib/provisioning/library/textLibrary";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(profileLibrary, async ({ event, query }) =>
  pagedAnswer(event, query, await libraryEntries(await provisioningStores(), "profiles"), (page) => page),
);
