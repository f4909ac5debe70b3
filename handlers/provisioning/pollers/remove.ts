import { endpoint } from "../../../lib/http/endpoint";
import { noContent } from "../../../lib/http/responses";
import { deletePoller } from "../../../lib/http/routes/pollers";
import { deletePoller as remove } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deletePoller, async ({ params }) => {
  await remove(await provisioningStores(), params.id);
  return noContent();
});
