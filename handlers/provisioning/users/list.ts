import { rackhdUser } from "../../../lib/auth/roles";
import { settings } from "../../../lib/config/settings";
import { endpoint } from "../../../lib/http/endpoint";
import { basicCaller, configuredUsers } from "../../../lib/http/middleware/basicAuth";
import { listUsers } from "../../../lib/http/provisioning/users/routes";
import { ok } from "../../../lib/http/responses";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

// Its refusals go to the audit trail: the stores are composed though the handler reads none.
composeOperatorStores();

export const handler = endpoint(listUsers, async () => {
  const config = settings();
  const users = await configuredUsers(config);
  return ok(users.names.map((name) => rackhdUser(name, basicCaller(config, name).grants)));
});
