import { endpoint } from "../../../lib/http/endpoint";
import { eventPage } from "../../../lib/http/provisioning/events/eventPage";
import { nodeEvents as route } from "../../../lib/http/provisioning/events/routes";
import { ok } from "../../../lib/http/responses";
import { nodeEvents } from "../../../lib/provisioning/events/eventService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(route, async ({ params, query }) =>
  ok(await nodeEvents(await provisioningStores(), params.identifier, eventPage(query))),
);
