import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { createNode } from "../../../lib/http/provisioning/nodes/routes";
import { created } from "../../../lib/http/responses";
import { createNode as create } from "../../../lib/provisioning/nodes/nodeService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(
  createNode,
  async ({ readBody }) => {
    const node = await create(await provisioningStores(), await readBody(), new Date());
    return created(presentNode(node));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
