import { endpoint } from "../../../lib/http/endpoint";
import { deleteTemplate } from "../../../lib/http/provisioning/library/routes";
import { json, ok } from "../../../lib/http/responses";
import { deleteLibraryEntry } from "../../../lib/provisioning/library/textLibrary";
import { provisioningStores } from "../../../lib/store/compositionRoot";

/** RackHD's 404 body here is `{"error":"Not Found"}`. */
export const handler = endpoint(deleteTemplate, async ({ params }) => {
  const removed = await deleteLibraryEntry(await provisioningStores(), "templates", params.name);
  return removed ? ok(removed) : json(404, { error: "Not Found" });
});
