import { endpoint } from "../../../lib/http/endpoint";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { getNode } from "../../../lib/http/provisioning/nodes/routes";
import { ok } from "../../../lib/http/responses";
import { findNode } from "../../../lib/provisioning/nodes/findNode";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNode, async ({ params }) => {
  const node = await findNode(await provisioningStores(), params.identifier);
  return ok(presentNode(node));
});
