import { endpoint } from "../../../lib/http/endpoint";
import { removeFromWhitelist } from "../../../lib/http/provisioning/lookups/routes";
import { noContent } from "../../../lib/http/responses";
import { removeFromWhitelist as remove } from "../../../lib/provisioning/lookups/whitelist";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(removeFromWhitelist, async ({ params }) => {
  await remove(await provisioningStores(), params.identifier, new Date());
  return noContent();
});
