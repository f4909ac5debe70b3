import { deploymentConfig } from "../../../lib/config/deploymentConfig";
import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { patchConfig } from "../../../lib/http/provisioning/config/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { ok } from "../../../lib/http/responses";
import { patchServiceConfig } from "../../../lib/provisioning/config/serviceConfig";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(
  patchConfig,
  async ({ event, readBody }) => {
    const api = apiContext(event);
    const deployment = deploymentConfig(settings(), api.server, api.fileServer);
    return ok(await patchServiceConfig(await provisioningStores(), deployment, await readBody(), new Date()));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
