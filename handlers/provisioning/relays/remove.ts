import { endpoint } from "../../../lib/http/endpoint";
import { deleteSite } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { deleteSite as remove } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteSite, async ({ params }) => ok(await remove(await provisioningStores(), params.id)));
