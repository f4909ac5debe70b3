import { renderText } from "../textTemplate";
import type { TemplateContext } from "./installTemplates";

/**
 * A template or profile an operator put in the library (library/), as the boot flow reads it from
 * its store: its text. Named here, not imported from library/, which lists boot's built-ins beside
 * the put ones (library/ is above boot/ in the domain's map).
 */
export interface PutEntry {
  readonly contents: string;
}

/** What a put template or profile renders to for a booting node, with RackHD's flat names (`<%=repo%>`) and ours. */
export function renderEntry(entry: PutEntry, context: TemplateContext): string {
  const { options, api, nodeId, mac, token } = context;
  return renderText(entry.contents, {
    ...options,
    options,
    api,
    nodeId,
    mac,
    macaddress: mac,
    token: token ?? "",
    server: api.server,
    file: { server: api.fileServer },
  });
}
