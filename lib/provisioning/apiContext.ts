/** What `{{api.*}}` and `{{file.server}}` render to (RackHD's render context). */
export interface ApiContext {
  server: string;
  /** What `{{file.server}}` renders to: where the microkernel's files are (FILE_SERVER, else `server`). */
  fileServer: string;
  base: string;
  files: string;
  nodes: string;
  templates: string;
  profiles: string;
  lookups: string;
}

export function apiContextFor(server: string, fileServer = server): ApiContext {
  const base = `${server}/api/current`;
  return {
    server,
    fileServer,
    base,
    files: `${base}/files`,
    nodes: `${base}/nodes`,
    templates: `${base}/templates`,
    profiles: `${base}/profiles`,
    lookups: `${base}/lookups`,
  };
}

export const renderContext = (api: ApiContext) => ({ api, file: { server: api.fileServer } });
