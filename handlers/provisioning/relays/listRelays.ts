import { endpoint } from "../../../lib/http/endpoint";
import { listRelayCredentials } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { listRelayCredentials as list } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listRelayCredentials, async ({ params }) =>
  ok(await list(await provisioningStores(), params.id, new Date())),
);
