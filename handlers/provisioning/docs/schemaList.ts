import { endpoint } from "../../../lib/http/endpoint";
import { SERIALIZABLES } from "../../../lib/http/openapi/serializables";
import { schemaList } from "../../../lib/http/provisioning/docs/routes";
import { ok } from "../../../lib/http/responses";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

// It uses no store, but its caller may bring an API token, and the audit trail records its refusals.
composeOperatorStores();

export const handler = endpoint(schemaList, async () => ok(SERIALIZABLES));
