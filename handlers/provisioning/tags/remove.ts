import { endpoint } from "../../../lib/http/endpoint";
import { noContent } from "../../../lib/http/responses";
import { deleteTag } from "../../../lib/http/routes/discovery";
import { deleteTag as remove } from "../../../lib/provisioning/tags/tagService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteTag, async ({ params }) => {
  await remove(await provisioningStores(), params.name);
  return noContent();
});
