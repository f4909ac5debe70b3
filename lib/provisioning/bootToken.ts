import { randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Boot tokens: each workflow gets a random token, and every URL the service renders for the
 * booting node (the kickstart, the completion URI, the notification) names the node and carries
 * it. With BOOT_TOKENS=on a kickstart or completion request must carry its node's active
 * workflow's token, so a request from another machine (behind the same NAT, say) cannot complete
 * this node's install. It is not a secret from the booting node's own network: the token travels
 * in the iPXE script the node's MAC fetches, and a MAC can be spoofed.
 */
export const newBootToken = (): string => randomBytes(18).toString("base64url");

export function tokenMatches(expected: string | undefined, given: string | undefined): boolean {
  if (expected === undefined || given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The query a rendered boot URL carries: the node, and the workflow's token when it has one. */
export const bootQuery = (nodeId: string, token: string | undefined): string =>
  token === undefined ? `nodeId=${nodeId}` : `nodeId=${nodeId}&token=${token}`;
