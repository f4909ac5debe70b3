import { northboundRoute, param } from "../../../lib/provisioning/provisioningRoute";
import { provisioningStores } from "../../../lib/provisioning/stores";
import { setNodeObm } from "../../../lib/provisioning/obm/obmService";
import { presentNode } from "../../../lib/provisioning/presenters";
import { parseJsonBody } from "../../../lib/http/middleware/jsonBody";
import { created } from "../../../lib/http/responses";

/** POST /api/{version}/nodes/{identifier}/obm: 201 with the node (404 before the body is read). */
export const handler = northboundRoute({}, async (event) => {
  const node = await setNodeObm(await provisioningStores(), param(event, "identifier"), () => parseJsonBody(event, "required"), new Date());
  return created(presentNode(node));
});
