import { endpoint } from "../../../lib/http/endpoint";
import { presentSku } from "../../../lib/http/presenters/provisioningPresenters";
import { getSku } from "../../../lib/http/provisioning/skus/routes";
import { ok } from "../../../lib/http/responses";
import { getSku as get } from "../../../lib/provisioning/skus/skuService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getSku, async ({ params }) => ok(presentSku(await get(await provisioningStores(), params.id))));
