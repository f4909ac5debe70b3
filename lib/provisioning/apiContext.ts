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

export const renderContext = (api: ApiContext) => ({ api, file: { server: api.server } });
