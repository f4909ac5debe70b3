import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { setNodeSsh } from "../../../lib/http/provisioning/nodes/routes";
import { created } from "../../../lib/http/responses";
import { findNode } from "../../../lib/provisioning/nodes/findNode";
import { setNodeSshSettings } from "../../../lib/provisioning/nodes/sshService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 404 before the body is read. */
export const handler = endpoint(
  setNodeSsh,
  async ({ params, readBody }) => {
    const stores = await provisioningStores();
    await findNode(stores, params.identifier);
    return created(presentNode(await setNodeSshSettings(stores, params.identifier, await readBody(), new Date())));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
