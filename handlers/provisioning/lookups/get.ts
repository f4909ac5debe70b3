import { endpoint } from "../../../lib/http/endpoint";
import { getLookup } from "../../../lib/http/provisioning/lookups/routes";
import { ok } from "../../../lib/http/responses";
import { getLookup as get } from "../../../lib/provisioning/lookups/lookupService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getLookup, async ({ params }) => ok(await get(await provisioningStores(), params.id)));
