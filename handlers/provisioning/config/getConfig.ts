import { deploymentConfig } from "../../../lib/config/deploymentConfig";
import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { getConfig } from "../../../lib/http/provisioning/config/routes";
import { apiContext } from "../../../lib/http/requestContext";
import { ok } from "../../../lib/http/responses";
import { serviceConfig } from "../../../lib/provisioning/config/serviceConfig";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getConfig, async ({ event }) => {
  const api = apiContext(event);
  return ok(await serviceConfig(await provisioningStores(), deploymentConfig(settings(), api.server, api.fileServer)));
});
