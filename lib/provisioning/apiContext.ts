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
  /**
   * For a machine booting through its site's relay (`server` is then the relay): the bases under
   * which this service's own URLs may sit in a workflow's options, rendered when an operator
   * started it (the service as the relay reaches it, API_SERVER, FILE_SERVER). boot/relayUrls.ts
   * sends them through the relay.
   */
  serviceBases?: readonly string[];
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
