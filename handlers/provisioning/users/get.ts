import { rackhdUser } from "../../../lib/auth/roles";
import { settings } from "../../../lib/config/settings";
import { NotFoundError } from "../../../lib/errors";
import { endpoint } from "../../../lib/http/endpoint";
import { basicCaller, configuredUsers } from "../../../lib/http/middleware/basicAuth";
import { getUser } from "../../../lib/http/provisioning/users/routes";
import { ok } from "../../../lib/http/responses";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

// Its refusals go to the audit trail: the stores are composed though the handler reads none.
composeOperatorStores();

export const handler = endpoint(getUser, async ({ params }) => {
  const config = settings();
  const users = await configuredUsers(config);
  if (!users.names.includes(params.name)) throw new NotFoundError(`Could not find user ${params.name.slice(0, 64)}`);
  return ok(rackhdUser(params.name, basicCaller(config, params.name).grants));
});
