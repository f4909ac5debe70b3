import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { createHook } from "../../../lib/http/provisioning/hooks/routes";
import { created } from "../../../lib/http/responses";
import { createHook as create } from "../../../lib/provisioning/hooks/hookService";
import { hookSigningKey, provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(createHook, async ({ readBody }) =>
  created(await create(await provisioningStores(), await readBody(), new Date(), hookSigningKey(), settings().hookTargets)),
);
