import { endpoint } from "../../../lib/http/endpoint";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { deleteNode } from "../../../lib/http/provisioning/nodes/routes";
import { ok } from "../../../lib/http/responses";
import { deleteNode as remove } from "../../../lib/provisioning/lifecycle/deleteNode";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteNode, async ({ params }) => {
  const node = await remove(await provisioningStores(), params.identifier, new Date());
  return ok(presentNode(node));
});
