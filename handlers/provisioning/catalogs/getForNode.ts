import { endpoint } from "../../../lib/http/endpoint";
import { getNodeCatalog } from "../../../lib/http/provisioning/catalogs/routes";
import { ok } from "../../../lib/http/responses";
import { nodeCatalogOfSource } from "../../../lib/provisioning/catalogs/catalogService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNodeCatalog, async ({ params }) =>
  ok(await nodeCatalogOfSource(await provisioningStores(), params.identifier, params.source)),
);
