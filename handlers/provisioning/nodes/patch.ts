import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { patchNode } from "../../../lib/http/provisioning/nodes/routes";
import { ok } from "../../../lib/http/responses";
import { patchNode as patch } from "../../../lib/provisioning/nodes/nodeService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** The body is read once the node is known to exist (404 before 400). */
export const handler = endpoint(
  patchNode,
  async ({ params, readBody }) => {
    const node = await patch(await provisioningStores(), params.identifier, readBody, new Date());
    return ok(presentNode(node));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
