import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { pollerData } from "../../../lib/http/routes/pollers";
import { pollerData as data } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(pollerData, async ({ params }) => ok(await data(await provisioningStores(), params.id, new Date())));
