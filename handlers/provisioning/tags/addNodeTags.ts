import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { addNodeTags } from "../../../lib/http/provisioning/tags/routes";
import { noContent, ok } from "../../../lib/http/responses";
import { findNode } from "../../../lib/provisioning/nodes/findNode";
import { addNodeTags as add } from "../../../lib/provisioning/tags/tagService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

/** 404 before the body is read; a body without `tags` answers 204 (RackHD). */
export const handler = endpoint(
  addNodeTags,
  async ({ params, readBody }) => {
    const stores = await provisioningStores();
    await findNode(stores, params.identifier);
    const { tags } = await readBody();
    return tags === undefined ? noContent() : ok(await add(stores, params.identifier, tags, new Date()));
  },
  { idempotency: idempotentWith(idempotencyStore) },
);
