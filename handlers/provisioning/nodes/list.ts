import { northboundRoute, queryParameters } from "../../../lib/provisioning/provisioningRoute";
import { provisioningStores } from "../../../lib/provisioning/stores";
import { listNodes } from "../../../lib/provisioning/nodes/nodeService";
import { presentNode } from "../../../lib/provisioning/presenters";
import { ok } from "../../../lib/http/responses";

/** GET /api/{version}/nodes[?field=value] */
export const handler = northboundRoute({}, async (event) => {
  const nodes = await listNodes(await provisioningStores(), queryParameters(event));
  return ok(nodes.map(presentNode));
});
