import { endpoint } from "../../../lib/http/endpoint";
import { pausePoller } from "../../../lib/http/provisioning/pollers/routes";
import { ok } from "../../../lib/http/responses";
import { presentPoller } from "../../../lib/provisioning/pollers/poller";
import { setPollerPaused } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(pausePoller, async ({ params }) =>
  ok(presentPoller(await setPollerPaused(await provisioningStores(), params.id, true, new Date()))),
);
