import { settings } from "../config/settings";
import { type ApiContext, apiContextFor } from "../provisioning/apiContext";
import { requestBaseUrl } from "./baseUrl";
import type { HttpEvent } from "./event";

const PROVISIONING_ROOT = "/api/";

/** API_SERVER when set, else the request's scheme, host and any stage prefix in front of /api/; FILE_SERVER, else the same. */
export const apiContext = (event: HttpEvent): ApiContext => {
  const config = settings();
  const server = requestBaseUrl(event, PROVISIONING_ROOT, config.apiServer);
  return apiContextFor(server, config.fileServer ?? server);
};
