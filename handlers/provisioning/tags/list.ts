import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { listTags } from "../../../lib/http/provisioning/tags/routes";
import { listTags as list } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listTags, async ({ event, query }) =>
  pagedAnswer(event, query, await list(await provisioningStores()), (page) => page),
);
