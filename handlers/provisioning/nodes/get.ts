import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { findNode } from "../../../lib/provisioning/nodes/nodeService";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/nodes/{identifier} (an id or a MAC) */
export const handler = northboundRoute({}, async (event) => {
  const node = await findNode(await provisioningStores(), param(event, "identifier"));
  return ok(presentNode(node));
});
