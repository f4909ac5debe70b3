import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { created } from "../../../lib/http/responses";
import { createNode } from "../../../lib/http/routes/provisioning";
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
