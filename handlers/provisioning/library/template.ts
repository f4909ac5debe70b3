import { endpoint } from "../../../lib/http/endpoint";
import { templateLibraryEntry } from "../../../lib/http/provisioning/library/routes";
import { json, ok } from "../../../lib/http/responses";
import { libraryEntry } from "../../../lib/provisioning/library/textLibrary";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** RackHD's 404 body here is `{"error":"Not Found"}`. */
export const handler = endpoint(templateLibraryEntry, async ({ params }) => {
  const entry = await libraryEntry(await provisioningStores(), "templates", params.name);
  return entry ? ok(entry) : json(404, { error: "Not Found" });
});
