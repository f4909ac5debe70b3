import { endpoint } from "../../../lib/http/endpoint";
import { created } from "../../../lib/http/responses";
import { createSite } from "../../../lib/http/routes/relays";
import { createSite as create } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(createSite, async ({ readBody }) =>
  created(await create(await provisioningStores(), await readBody(), new Date())),
);
