import { revokeToken as revoke } from "../../../lib/auth/apiTokens";
import { endpoint } from "../../../lib/http/endpoint";
import { callerOf } from "../../../lib/http/principal";
import { revokeToken } from "../../../lib/http/provisioning/tokens/routes";
import { noContent } from "../../../lib/http/responses";
import { apiTokenStore } from "../../../lib/store/compositionRoot";

export const handler = endpoint(revokeToken, async ({ event, params }) => {
  await revoke(apiTokenStore(), callerOf(event), params.id);
  return noContent();
});
