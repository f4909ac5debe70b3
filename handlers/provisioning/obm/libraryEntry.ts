import { endpoint } from "../../../lib/http/endpoint";
import { obmLibraryEntry } from "../../../lib/http/provisioning/obm/routes";
import { ok } from "../../../lib/http/responses";
import { obmLibraryEntry as entry } from "../../../lib/provisioning/obm/obmService";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

// It uses no store, but its caller may bring an API token, and the audit trail records its refusals.
composeOperatorStores();

export const handler = endpoint(obmLibraryEntry, async ({ params }) => ok(entry(params.service)));
