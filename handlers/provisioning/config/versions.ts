import { SERVICE_VERSION } from "../../../lib/config/deploymentConfig";
import { endpoint } from "../../../lib/http/endpoint";
import { getVersions } from "../../../lib/http/provisioning/config/routes";
import { ok } from "../../../lib/http/responses";

export const handler = endpoint(getVersions, async () =>
  ok([
    { package: "lambda-tasks-provisioning", version: SERVICE_VERSION },
    { package: "nodejs", version: process.versions.node },
  ]),
);
