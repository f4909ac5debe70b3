import { endpoint } from "../../../lib/http/endpoint";
import { deleteTag } from "../../../lib/http/provisioning/tags/routes";
import { noContent } from "../../../lib/http/responses";
import { deleteTag as remove } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteTag, async ({ params }) => {
  await remove(await provisioningStores(), params.name);
  return noContent();
});
