import { endpoint } from "../../../lib/http/endpoint";
import { idempotentWith } from "../../../lib/http/idempotentRequest";
import { createTag } from "../../../lib/http/provisioning/tags/routes";
import { created } from "../../../lib/http/responses";
import { createTag as create } from "../../../lib/provisioning/tags/tagService";
import { idempotencyStore, provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(
  createTag,
  async ({ readBody }) => created(await create(await provisioningStores(), await readBody(), new Date())),
  { idempotency: idempotentWith(idempotencyStore) },
);
