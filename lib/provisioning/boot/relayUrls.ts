import type { ApiContext } from "../apiContext";

/**
 * A task's options as a machine booting through its site's relay must see them. An operator's
 * workflow was rendered with the service's URL as the operator reached it (`{{file.server}}` in
 * kernelUri, initrdUri, …), which a machine behind a relay cannot reach (with BOOT_VIA_RELAY=on
 * the service answers it nothing): each option that is a URL under one of the service's own bases
 * is sent through the relay instead, the rest of the URL kept. Other URLs (a mirror, a repo) stay.
 */
export function throughRelay(options: Record<string, unknown>, api: ApiContext): Record<string, unknown> {
  const bases = api.serviceBases ?? [];
  if (bases.length === 0) return options;
  const routed: Record<string, unknown> = { ...options };
  for (const [key, value] of Object.entries(options)) {
    if (typeof value !== "string") continue;
    const base = bases.find((each) => value.startsWith(`${each}/`));
    if (base !== undefined) routed[key] = `${api.server}${value.slice(base.length)}`;
  }
  return routed;
}
