import { endpoint } from "../../../lib/http/endpoint";
import { pollerLibraryEntry } from "../../../lib/http/provisioning/pollers/routes";
import { noContent, ok } from "../../../lib/http/responses";
import { pollerLibraryEntry as entry } from "../../../lib/provisioning/pollers/pollerService";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

// It uses no store, but its caller may bring an API token, and the audit trail records its refusals.
composeOperatorStores();

export const handler = endpoint(pollerLibraryEntry, async ({ params }) => {
  const found = entry(params.name);
  return found ? ok(found) : noContent();
});
