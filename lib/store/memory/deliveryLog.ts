import type { Delivery, DeliveryLog } from "../../provisioning/hooks/deliveryLog";
import { DELIVERIES_PAGE_LIMIT } from "../../provisioning/hooks/deliveryLog";

/** Each hook's last deliveries in this container's memory (a page's worth each). */
export class MemoryDeliveryLog implements DeliveryLog {
  private readonly byHook = new Map<string, Delivery[]>();

  async record(delivery: Delivery): Promise<void> {
    const kept = this.byHook.get(delivery.hookId) ?? [];
    kept.unshift(structuredClone(delivery));
    if (kept.length > DELIVERIES_PAGE_LIMIT) kept.pop();
    this.byHook.set(delivery.hookId, kept);
  }

  async recent(hookId: string, limit: number): Promise<Delivery[]> {
    return (this.byHook.get(hookId) ?? []).slice(0, limit);
  }
}
