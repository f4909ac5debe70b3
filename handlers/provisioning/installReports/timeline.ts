import { endpoint } from "../../../lib/http/endpoint";
import { nodeTimeline as route } from "../../../lib/http/provisioning/installReports/routes";
import { ok } from "../../../lib/http/responses";
import { nodeTimeline } from "../../../lib/provisioning/installReports/timeline";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(route, async ({ params }) =>
  ok(await nodeTimeline(await provisioningStores(), params.identifier, new Date())),
);
