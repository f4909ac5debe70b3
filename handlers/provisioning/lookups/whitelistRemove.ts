import { endpoint } from "../../../lib/http/endpoint";
import { noContent } from "../../../lib/http/responses";
import { removeFromWhitelist } from "../../../lib/http/routes/discovery";
import { removeFromWhitelist as remove } from "../../../lib/provisioning/lookups/whitelist";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(removeFromWhitelist, async ({ params }) => {
  await remove(await provisioningStores(), params.identifier, new Date());
  return noContent();
});
