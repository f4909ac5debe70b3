import { northboundRoute, param } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { setNodeObm } from "../../../lib/provisioning/obm/obmService";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { parseJsonBody } from "../../../lib/http/middleware/jsonBody";
import { created } from "../../../lib/http/responses";

/** POST /api/{version}/nodes/{identifier}/obm: 201 with the node (404 before the body is read). */
export const handler = northboundRoute({}, async (event) => {
  const node = await setNodeObm(await provisioningStores(), param(event, "identifier"), () => parseJsonBody(event, "required"), new Date());
  return created(presentNode(node));
});
