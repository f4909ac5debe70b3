import { endpoint } from "../../../lib/http/endpoint";
import { deleteSku } from "../../../lib/http/provisioning/skus/routes";
import { noContent } from "../../../lib/http/responses";
import { deleteSku as remove } from "../../../lib/provisioning/skus/skuService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteSku, async ({ params }) => {
  await remove(await provisioningStores(), params.id, new Date());
  return noContent();
});
