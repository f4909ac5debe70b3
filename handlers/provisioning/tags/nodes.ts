import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { listTagNodes } from "../../../lib/http/provisioning/tags/routes";
import { tagNodes } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listTagNodes, async ({ event, params, query }) =>
  pagedAnswer(event, query, await tagNodes(await provisioningStores(), params.name), (page) => page.map(presentNode)),
);
