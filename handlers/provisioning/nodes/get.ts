import { northboundRoute, param } from "../../../lib/provisioning/provisioningRoute";
import { provisioningStores } from "../../../lib/provisioning/stores";
import { findNode } from "../../../lib/provisioning/nodes/nodeService";
import { presentNode } from "../../../lib/provisioning/presenters";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/nodes/{identifier} (an id or a MAC) */
export const handler = northboundRoute({}, async (event) => {
  const node = await findNode(await provisioningStores(), param(event, "identifier"));
  return ok(presentNode(node));
});
