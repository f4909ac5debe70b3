import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { listSites } from "../../../lib/http/routes/relays";
import { listSites as list } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listSites, async () => ok(await list(await provisioningStores())));
