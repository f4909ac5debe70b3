import { endpoint } from "../../../lib/http/endpoint";
import { graphLibraryEntry } from "../../../lib/http/provisioning/graphs/routes";
import { ok } from "../../../lib/http/responses";
import { graphLibraryEntry as entry, graphLibrary } from "../../../lib/provisioning/graphs/libraryService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** `*` is the whole library (RackHD's later form). */
export const handler = endpoint(graphLibraryEntry, async ({ params }) => {
  const stores = await provisioningStores();
  return ok(params.name === "*" ? await graphLibrary(stores) : await entry(stores, params.name));
});
