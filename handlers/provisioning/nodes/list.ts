import { endpoint } from "../../../lib/http/endpoint";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { ok } from "../../../lib/http/responses";
import { listNodes } from "../../../lib/http/routes/provisioning";
import { listNodes as list } from "../../../lib/provisioning/nodes/nodeService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listNodes, async ({ query }) => {
  const nodes = await list(await provisioningStores(), query);
  return ok(nodes.map(presentNode));
});
