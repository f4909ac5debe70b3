import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { deleteNode } from "../../../lib/provisioning/nodes/nodeService";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { ok } from "../../../lib/http/responses";

/** DELETE /api/{version}/nodes/{identifier}: 200 with the deleted node; 409 while a workflow is active. */
export const handler = northboundRoute({}, async (event) => {
  const node = await deleteNode(await provisioningStores(), param(event, "identifier"), new Date());
  return ok(presentNode(node));
});
