import { endpoint } from "../../../lib/http/endpoint";
import { deleteLookup } from "../../../lib/http/provisioning/lookups/routes";
import { ok } from "../../../lib/http/responses";
import { deleteLookup as remove } from "../../../lib/provisioning/lookups/lookupService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(deleteLookup, async ({ params }) => ok(await remove(await provisioningStores(), params.id)));
