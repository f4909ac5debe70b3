import { endpoint } from "../../../lib/http/endpoint";
import { serializable } from "../../../lib/http/openapi/serializables";
import { schemaEntry } from "../../../lib/http/provisioning/docs/routes";
import { noContent, ok } from "../../../lib/http/responses";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

// It uses no store, but its caller may bring an API token, and the audit trail records its refusals.
composeOperatorStores();

/** 204 for an unknown id, as RackHD answered. */
export const handler = endpoint(schemaEntry, async ({ params }) => {
  const schema = serializable(params.id);
  return schema ? ok(schema) : noContent();
});
