import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { obmLibrary } from "../../../lib/http/provisioning/obm/routes";
import { obmLibrary as library } from "../../../lib/provisioning/obm/obmService";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

// It uses no store, but its caller may bring an API token, and the audit trail records its refusals.
composeOperatorStores();

export const handler = endpoint(obmLibrary, async ({ event, query }) => pagedAnswer(event, query, library(), (page) => page));
