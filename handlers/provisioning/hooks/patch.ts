import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { patchHook } from "../../../lib/http/provisioning/hooks/routes";
import { ok } from "../../../lib/http/responses";
import { updateHook } from "../../../lib/provisioning/hooks/hookService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(patchHook, async ({ params, readBody }) =>
  ok(await updateHook(await provisioningStores(), params.id, await readBody(), new Date(), settings().hookTargets)),
);
