import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { nodeObmSettings } from "../../../lib/provisioning/obm/obmService";
import { redact } from "../../../lib/provisioning/secrets";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/nodes/{identifier}/obm: the node's OBM settings, secrets redacted. */
export const handler = northboundRoute({}, async (event) => {
  const settings = await nodeObmSettings(await provisioningStores(), param(event, "identifier"));
  return ok(redact(settings));
});
