import { northboundRoute } from "../../../lib/provisioning/provisioningRoute";
import { provisioningStores } from "../../../lib/provisioning/stores";
import { createNode } from "../../../lib/provisioning/nodes/nodeService";
import { presentNode } from "../../../lib/provisioning/presenters";
import { created } from "../../../lib/http/responses";

/** POST /api/{version}/nodes */
export const handler = northboundRoute({ body: "required" }, async (event) => {
  const node = await createNode(await provisioningStores(), event.body, new Date());
  return created(presentNode(node));
});
