import { endpoint } from "../../../lib/http/endpoint";
import { addToWhitelist } from "../../../lib/http/provisioning/lookups/routes";
import { created } from "../../../lib/http/responses";
import { addToWhitelist as add } from "../../../lib/provisioning/lookups/whitelist";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(addToWhitelist, async ({ params }) =>
  created(await add(await provisioningStores(), params.identifier, new Date())),
);
