import type { DeliveryDeps, DeliveryQueue, PostOutcome, WebhookPoster } from "../provisioning/hooks/deliveryService";
import type { ProvisioningStores } from "../provisioning/ports";

/** How long a receiver has to answer a delivery before the attempt counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * POSTs with Node's fetch: no redirect followed (a hook's URL is where the events go, not a
 * pointer elsewhere), the answer's body discarded, a time-out.
 */
export const fetchPoster: WebhookPoster = {
  async post(url: string, headers: Record<string, string>, body: string): Promise<PostOutcome> {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      await response.body?.cancel();
      return { status: response.status };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return { error: (error as Error).name === "TimeoutError" ? "timed out" : (cause ?? (error as Error).message) };
    }
  },
};

/** What a delivery needs, wherever it runs (deployed or locally): only the queue its retries go to differs. */
export const deliveryDepsOf = (
  stores: Pick<ProvisioningStores, "hooks" | "deliveries">,
  signingKey: string,
  retrySeconds: readonly number[],
  queue: DeliveryQueue,
): DeliveryDeps => ({ stores, queue, poster: fetchPoster, signingKey, retrySeconds, now: () => new Date() });
