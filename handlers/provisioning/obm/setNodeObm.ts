import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { setNodeObm } from "../../../lib/http/provisioning/obm/routes";
import { created } from "../../../lib/http/responses";
import { setNodeObm as setObm } from "../../../lib/provisioning/obm/obmService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 201 with the node; the body is read once the node is known to exist (404 before 400). */
export const handler = endpoint(
  setNodeObm,
  async ({ params, readBody }) => {
    const node = await setObm(await provisioningStores(), params.identifier, readBody, new Date());
    return created(presentNode(node));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
