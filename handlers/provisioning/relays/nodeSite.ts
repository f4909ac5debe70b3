import { endpoint } from "../../../lib/http/endpoint";
import { presentNode } from "../../../lib/http/presenters/provisioningPresenters";
import { setNodeSite } from "../../../lib/http/provisioning/relays/routes";
import { ok } from "../../../lib/http/responses";
import { setNodeSite as setSite } from "../../../lib/provisioning/relays/nodeSite";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(setNodeSite, async ({ params, readBody }) => {
  const { site } = await readBody();
  return ok(presentNode(await setSite(await provisioningStores(), params.identifier, site, new Date())));
});
