import { issueToken } from "../../../lib/auth/apiTokens";
import { endpoint } from "../../../lib/http/endpoint";
import { callerOf } from "../../../lib/http/principal";
import { createToken } from "../../../lib/http/provisioning/tokens/routes";
import { created } from "../../../lib/http/responses";
import { apiTokenStore } from "../../../lib/store/compositionRoot";

export const handler = endpoint(createToken, async ({ event, readBody }) => {
  const { token, record } = await issueToken(apiTokenStore(), callerOf(event), await readBody(), new Date());
  return created({ ...record, token });
});
