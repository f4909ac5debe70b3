import { endpoint } from "../../../lib/http/endpoint";
import { deletePoller } from "../../../lib/http/provisioning/pollers/routes";
import { noContent } from "../../../lib/http/responses";
import { deletePoller as remove } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deletePoller, async ({ params }) => {
  await remove(await provisioningStores(), params.id);
  return noContent();
});
