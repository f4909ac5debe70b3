import { endpoint } from "../../../lib/http/endpoint";
import { createSite } from "../../../lib/http/provisioning/relays/routes";
import { created } from "../../../lib/http/responses";
import { createSite as create } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(createSite, async ({ readBody }) =>
  created(await create(await provisioningStores(), await readBody(), new Date())),
);
