import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { listRelayCredentials } from "../../../lib/http/routes/relays";
import { listRelayCredentials as list } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listRelayCredentials, async ({ params }) =>
  ok(await list(await provisioningStores(), params.id, new Date())),
);
