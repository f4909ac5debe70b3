import { type LookupAddress, lookup } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { DeliveryDeps, DeliveryQueue, PostOutcome, WebhookPoster } from "../provisioning/hooks/deliveryService";
import { type HookTargetPolicy, hostOf, nonPublicAddress } from "../provisioning/hooks/hookTarget";
import type { ProvisioningStores } from "../provisioning/ports";

/** How long a receiver has to answer a delivery before the attempt counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** A delivery the policy stops before any byte leaves: the attempt fails with this, naming why. */
const refused = (why: string): PostOutcome => ({ error: `refused: ${why}` });

/**
 * The resolver a delivery connects through when private targets are not allowed (issue 35 §7):
 * every address the name resolves to is checked, and the connection goes to a checked address
 * (no second resolution between the check and the connect for a rebinding name to slip into).
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const blocked = addresses.find(({ address }) => nonPublicAddress(address) !== undefined);
    if (blocked || addresses.length === 0) {
      // The kind of address, not the address: a hook's owner must not map the internal network by it (issue 50).
      const why = blocked
        ? `${hostname} resolves to a non-public address (${nonPublicAddress(blocked.address)})`
        : `${hostname} has no address`;
      return callback(Object.assign(new Error(why), { code: "EREFUSEDTARGET" }), "", 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/**
 * POSTs with Node's http/https: no redirect followed (a hook's URL is where the events go, not a
 * pointer elsewhere), the answer's body discarded, a time-out; under `policy`, plain http and
 * non-public addresses refused, checked again here at every delivery (a URL was checked when it
 * was registered, but a name may resolve anywhere later, and the stage's policy may have changed).
 */
export function webhookPoster(policy: HookTargetPolicy): WebhookPoster {
  return {
    post: (url, headers, body) =>
      new Promise<PostOutcome>((resolve) => {
        const target = new URL(url);
        if (target.protocol === "http:" && !policy.http) return resolve(refused("plain http (HOOK_HTTP=off)"));
        const host = hostOf(target);
        const literal = isIP(host) ? nonPublicAddress(host) : undefined;
        if (!policy.privateTargets && literal) return resolve(refused(`${host} is ${literal}`));
        const send = target.protocol === "https:" ? httpsRequest : httpRequest;
        const outgoing = send(
          target,
          {
            method: "POST",
            headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
            ...(!policy.privateTargets && { lookup: publicOnlyLookup }),
          },
          (response) => {
            response.resume();
            clearTimeout(timer);
            resolve({ status: response.statusCode ?? 0 });
          },
        );
        const timer = setTimeout(() => outgoing.destroy(Object.assign(new Error("timed out"), { code: "timed out" })), DELIVERY_TIMEOUT_MS);
        outgoing.on("error", (error: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          resolve(error.code === "EREFUSEDTARGET" ? refused(error.message) : { error: error.code ?? error.message });
        });
        outgoing.end(body);
      }),
  };
}

/** What a delivery needs, wherever it runs (deployed or locally): only the queue its retries go to differs. */
export const deliveryDepsOf = (
  stores: Pick<ProvisioningStores, "hooks" | "deliveries">,
  signingKey: string,
  retrySeconds: readonly number[],
  queue: DeliveryQueue,
  policy: HookTargetPolicy,
): DeliveryDeps => ({ stores, queue, poster: webhookPoster(policy), signingKey, retrySeconds, now: () => new Date() });
