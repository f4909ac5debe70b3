import { version } from "../../package.json";
import type { Settings } from "./settings";

/** The service's version (package.json), for GET /versions. */
export const SERVICE_VERSION = version;

/**
 * GET /config's deployment keys: RackHD's names where the service has the same thing (the API
 * server's address and port, its HTTP endpoints), `null` for what it has not (no AMQP bus, no
 * MongoDB, no DHCP server: it is Lambda and DynamoDB), and this service's settings. Set by the
 * environment of each function, so PATCH /config cannot change them. AUTH_USERS never appears.
 */
export function deploymentConfig(config: Settings, apiServer: string, fileServer: string): Record<string, unknown> {
  const url = new URL(apiServer);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const endpoint = (routers: string, authEnabled: boolean) => ({
    address: url.hostname,
    port,
    httpsEnabled: url.protocol === "https:",
    proxiesEnabled: false,
    authEnabled,
    routers,
  });
  return {
    apiServerAddress: url.hostname,
    apiServerPort: port,
    fileServerAddress: new URL(fileServer).hostname,
    httpEndpoints: [endpoint("northbound-api-router", config.provisioningAuth), endpoint("southbound-api-router", false)],
    amqp: null,
    mongo: null,
    broadcastaddr: null,
    subnetmask: null,
    PATH: process.env.PATH ?? "",
    store: config.store,
    dynamodbTable: config.store === "dynamodb" ? config.dynamodbTable : null,
    discoveryGraph: config.discoveryGraph ?? "off",
    bootTokens: config.bootTokens,
    provisioningAuth: config.provisioningAuth,
    authUsersParameter: config.authUsersParameter ?? null,
    corsOrigins: config.corsOrigins,
    bodyLimitBytes: config.bodyLimitBytes,
    logRequests: config.logRequests,
  };
}
