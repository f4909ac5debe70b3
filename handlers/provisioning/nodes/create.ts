import { northboundRoute } from "../../../lib/http/provisioningRoute";
import { provisioningStores } from "../../../lib/store/compositionRoot";
import { createNode } from "../../../lib/provisioning/nodes/nodeService";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { created } from "../../../lib/http/responses";

/** POST /api/{version}/nodes */
export const handler = northboundRoute({ body: "required" }, async (event) => {
  const node = await createNode(await provisioningStores(), event.body, new Date());
  return created(presentNode(node));
});
