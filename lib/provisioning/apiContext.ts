import { settings } from "../config/settings";
import { requestBaseUrl } from "../http/baseUrl";
import type { HttpEvent } from "../http/event";

/** What `{{api.*}}` and `{{file.server}}` render to (RackHD's render context). */
export interface ApiContext {
  server: string;
  base: string;
  files: string;
  nodes: string;
  templates: string;
  profiles: string;
  lookups: string;
}

export const PROVISIONING_ROOT = "/api/";

export function apiContextFor(server: string): ApiContext {
  const base = `${server}/api/current`;
  return {
    server,
    base,
    files: `${base}/files`,
    nodes: `${base}/nodes`,
    templates: `${base}/templates`,
    profiles: `${base}/profiles`,
    lookups: `${base}/lookups`,
  };
}

/** API_SERVER when set, else the request's scheme, host and any stage prefix in front of /api/. */
export const apiContext = (event: HttpEvent): ApiContext =>
  apiContextFor(requestBaseUrl(event, PROVISIONING_ROOT, settings().apiServer));

export const renderContext = (api: ApiContext) => ({ api, file: { server: api.server } });
