import { endpoint } from "../../../lib/http/endpoint";
import { getNodeTags } from "../../../lib/http/provisioning/tags/routes";
import { ok } from "../../../lib/http/responses";
import { nodeTags } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNodeTags, async ({ params }) => ok(await nodeTags(await provisioningStores(), params.identifier)));
