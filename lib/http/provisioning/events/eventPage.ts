import type { EventPage } from "../../../provisioning/events/eventService";

/** `?after=` and `?limit=`, which the route's schema checked (one value each, digits only). */
export function eventPage(query: { after?: string[]; limit?: string[] }): EventPage {
  const [after] = query.after ?? [];
  const [limit] = query.limit ?? [];
  return { ...(after !== undefined && { after: Number(after) }), ...(limit !== undefined && { limit: Number(limit) }) };
}
