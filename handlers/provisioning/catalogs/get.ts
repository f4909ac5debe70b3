import { endpoint } from "../../../lib/http/endpoint";
import { getCatalog } from "../../../lib/http/provisioning/catalogs/routes";
import { ok } from "../../../lib/http/responses";
import { getCatalog as get } from "../../../lib/provisioning/catalogs/catalogService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getCatalog, async ({ params }) => ok(await get(await provisioningStores(), params.id)));
