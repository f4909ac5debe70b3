import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { patchNode } from "../../../lib/provisioning/nodes/nodeService";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { parseJsonBody } from "../../../lib/http/middleware/jsonBody";
import { ok } from "../../../lib/http/responses";

/** PATCH /api/{version}/nodes/{identifier}: the body is read once the node is known to exist. */
export const handler = northboundRoute({}, async (event) => {
  const node = await patchNode(await provisioningStores(), param(event, "identifier"), () => parseJsonBody(event, "required"), new Date());
  return ok(presentNode(node));
});
