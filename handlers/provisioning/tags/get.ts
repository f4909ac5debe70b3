import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { getTag } from "../../../lib/http/routes/discovery";
import { getTag as get } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getTag, async ({ params }) => ok(await get(await provisioningStores(), params.name)));
