import { endpoint } from "../../../lib/http/endpoint";
import { getHook } from "../../../lib/http/provisioning/hooks/routes";
import { ok } from "../../../lib/http/responses";
import { getHook as get } from "../../../lib/provisioning/hooks/hookService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getHook, async ({ params }) => ok(await get(await provisioningStores(), params.id, new Date())));
