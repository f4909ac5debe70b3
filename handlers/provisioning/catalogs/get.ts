import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { getCatalog } from "../../../lib/http/routes/discovery";
import { getCatalog as get } from "../../../lib/provisioning/catalogs/catalogService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getCatalog, async ({ params }) => ok(await get(await provisioningStores(), params.id)));
