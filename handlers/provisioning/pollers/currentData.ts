import { endpoint } from "../../../lib/http/endpoint";
import { currentPollerData } from "../../../lib/http/provisioning/pollers/routes";
import { ok } from "../../../lib/http/responses";
import { currentPollerData as current } from "../../../lib/provisioning/pollers/pollerService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(currentPollerData, async ({ params }) =>
  ok(await current(await provisioningStores(), params.id, new Date())),
);
