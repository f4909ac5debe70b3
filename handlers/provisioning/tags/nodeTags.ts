import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { getNodeTags } from "../../../lib/http/routes/discovery";
import { nodeTags } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNodeTags, async ({ params }) => ok(await nodeTags(await provisioningStores(), params.identifier)));
