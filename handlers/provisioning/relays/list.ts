import { endpoint } from "../../../lib/http/endpoint";
import { listSites } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { listSites as list } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(listSites, async () => ok(await list(await provisioningStores())));
