import { endpoint } from "../../../lib/http/endpoint";
import { deleteSubnet } from "../../../lib/http/provisioning/subnets/routes";
import { noContent } from "../../../lib/http/responses";
import { deleteSubnet as remove } from "../../../lib/provisioning/subnets/subnetService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteSubnet, async ({ params }) => {
  await remove(await provisioningStores(), params.id);
  return noContent();
});
