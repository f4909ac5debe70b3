import { endpoint } from "../../../lib/http/endpoint";
import { deleteHook } from "../../../lib/http/provisioning/hooks/routes";
import { noContent } from "../../../lib/http/responses";
import { deleteHook as remove } from "../../../lib/provisioning/hooks/hookService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteHook, async ({ params }) => {
  await remove(await provisioningStores(), params.id);
  return noContent();
});
