import { endpoint } from "../../../lib/http/endpoint";
import { getTag } from "../../../lib/http/provisioning/tags/routes";
import { ok } from "../../../lib/http/responses";
import { getTag as get } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getTag, async ({ params }) => ok(await get(await provisioningStores(), params.name)));
