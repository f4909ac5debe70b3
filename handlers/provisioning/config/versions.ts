import { SERVICE_VERSION } from "../../../lib/config/deploymentConfig";
import { endpoint } from "../../../lib/http/endpoint";
import { getVersions } from "../../../lib/http/provisioning/config/routes";
import { ok } from "../../../lib/http/responses";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

// It uses no store, but its caller may bring an API token, and the audit trail records its refusals.
composeOperatorStores();

export const handler = endpoint(getVersions, async () =>
  ok([
    { package: "lambda-tasks-provisioning", version: SERVICE_VERSION },
    { package: "nodejs", version: process.versions.node },
  ]),
);
