import { northboundRoute, queryParameters } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { listNodes } from "../../../lib/provisioning/nodes/nodeService";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/nodes[?field=value] */
export const handler = northboundRoute({}, async (event) => {
  const nodes = await listNodes(await provisioningStores(), queryParameters(event));
  return ok(nodes.map(presentNode));
});
