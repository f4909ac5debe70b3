import { settings } from "../config/settings";
import { type ApiContext, apiContextFor } from "../provisioning/apiContext";
import { requestBaseUrl } from "./baseUrl";
import { relayBase } from "./bootGate";
import type { HttpEvent } from "./event";

const PROVISIONING_ROOT = "/api/";

/**
 * The relay's URL for a request a relay forwarded; else API_SERVER when set, else the request's
 * scheme, host and any stage prefix in front of /api/; FILE_SERVER, else the same.
 */
export const apiContext = (event: HttpEvent): ApiContext => {
  // A machine booting through its site's relay gets every URL on the relay.
  const relay = relayBase(event);
  const config = settings();
  if (relay) {
    const own = [requestBaseUrl(event, PROVISIONING_ROOT, undefined), config.apiServer, config.fileServer];
    return { ...apiContextFor(relay, relay), serviceBases: [...new Set(own.filter((base): base is string => base !== undefined))] };
  }
  const server = requestBaseUrl(event, PROVISIONING_ROOT, config.apiServer);
  return apiContextFor(server, config.fileServer ?? server);
};
