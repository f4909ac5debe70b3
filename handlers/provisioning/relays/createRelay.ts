import { endpoint } from "../../../lib/http/endpoint";
import { createRelayCredential } from "../../../lib/http/provisioning/relays/routes";
import { created } from "../../../lib/http/responses";
import { createRelayCredential as create } from "../../../lib/provisioning/relays/siteService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(createRelayCredential, async ({ params, readBody }) =>
  created(await create(await provisioningStores(), params.id, (await readBody()) ?? {}, new Date())),
);
