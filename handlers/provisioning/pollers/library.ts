import { endpoint } from "../../../lib/http/endpoint";
import { pollerLibrary } from "../../../lib/http/provisioning/pollers/routes";
import { ok } from "../../../lib/http/responses";
import { pollerLibrary as library } from "../../../lib/provisioning/pollers/pollerService";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

// It uses no store, but its caller may bring an API token, and the audit trail records its refusals.
composeOperatorStores();

export const handler = endpoint(pollerLibrary, async () => ok(library()));
