import { endpoint } from "../../../lib/http/endpoint";
import { getNodeObm } from "../../../lib/http/provisioning/obm/routes";
import { ok } from "../../../lib/http/responses";
import { nodeObmSettings } from "../../../lib/provisioning/obm/obmService";
import { redact } from "../../../lib/provisioning/secrets";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNodeObm, async ({ params }) => {
  const settings = await nodeObmSettings(await provisioningStores(), params.identifier);
  return ok(redact(settings));
});
