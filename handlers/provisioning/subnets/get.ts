import { endpoint } from "../../../lib/http/endpoint";
import { getSubnet } from "../../../lib/http/provisioning/subnets/routes";
import { ok } from "../../../lib/http/responses";
import { getSubnet as get } from "../../../lib/provisioning/subnets/subnetService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getSubnet, async ({ params }) => ok(await get(await provisioningStores(), params.id)));
