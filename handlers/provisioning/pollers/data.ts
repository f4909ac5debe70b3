import { endpoint } from "../../../lib/http/endpoint";
import { pollerData } from "../../../lib/http/provisioning/pollers/routes";
import { ok } from "../../../lib/http/responses";
import { pollerData as data } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(pollerData, async ({ params }) => ok(await data(await provisioningStores(), params.id, new Date())));
