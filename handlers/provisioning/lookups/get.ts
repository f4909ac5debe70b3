import { endpoint } from "../../../lib/http/endpoint";
import { ok } from "../../../lib/http/responses";
import { getLookup } from "../../../lib/http/routes/discovery";
import { getLookup as get } from "../../../lib/provisioning/lookups/lookupService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getLookup, async ({ params }) => ok(await get(await provisioningStores(), params.id)));
