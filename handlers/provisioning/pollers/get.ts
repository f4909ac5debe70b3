import { endpoint } from "../../../lib/http/endpoint";
import { getPoller } from "../../../lib/http/provisioning/pollers/routes";
import { ok } from "../../../lib/http/responses";
import { presentPoller } from "../../../lib/provisioning/pollers/poller";
import { getPoller as get } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getPoller, async ({ params }) => ok(presentPoller(await get(await provisioningStores(), params.id))));
