import { endpoint } from "../../../lib/http/endpoint";
import { getSite } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { getSite as get } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getSite, async ({ params }) => ok(await get(await provisioningStores(), params.id)));
