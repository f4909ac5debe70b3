import { endpoint } from "../../../lib/http/endpoint";
import { listHooks } from "../../../lib/http/provisioning/hooks/routes";
import { ok } from "../../../lib/http/responses";
import { listHooks as list } from "../../../lib/provisioning/hooks/hookService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listHooks, async () => ok(await list(await provisioningStores(), new Date())));
