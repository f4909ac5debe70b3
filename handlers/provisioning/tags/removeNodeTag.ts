import { endpoint } from "../../../lib/http/endpoint";
import { removeNodeTag } from "../../../lib/http/provisioning/tags/routes";
import { ok } from "../../../lib/http/responses";
import { removeNodeTag as remove } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(removeNodeTag, async ({ params }) =>
  ok(await remove(await provisioningStores(), params.identifier, params.tag, new Date())),
);
