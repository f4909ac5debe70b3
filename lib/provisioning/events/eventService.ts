import { NotFoundError } from "../../errors";
import { OBJECT_ID } from "../ids";
import { findNode } from "../nodes/findNode";
import type { ProvisioningStores } from "../ports";
import { fitsKey } from "../recordSize";
import { NO_NODE } from "../workflowEngine/workflow";
import { envelope, type ServiceEvent, subjectOf } from "./event";
import { EVENT_PAGE_LIMIT } from "./eventLog";

export interface EventPage {
  /** The events after this sequence (0: from the first). */
  after?: number;
  limit?: number;
}

type Stores = Pick<ProvisioningStores, "events" | "nodes" | "lookups" | "workflows">;

/** The page asked for, a page's worth at most. */
const limitOf = (page: EventPage): number => Math.min(page.limit ?? EVENT_PAGE_LIMIT, EVENT_PAGE_LIMIT);

/**
 * A node's events, in order. A node id answers even after the node is gone (its `node.removed`
 * is the last); a MAC or boot address names a node that exists. A node the caller's node store
 * does not hold (another site's, issue 55) is not gone: its events are not answered.
 */
export async function nodeEvents(stores: Stores, identifier: string, page: EventPage): Promise<Record<string, unknown>[]> {
  const limit = limitOf(page);
  const after = page.after ?? 0;
  const node = OBJECT_ID.test(identifier) ? await stores.nodes.get(identifier) : undefined;
  if (node) return (await stores.events.list(node.id, { after, limit })).map(envelope);
  if (OBJECT_ID.test(identifier) && (await removed(stores, identifier)))
    return (await stores.events.list(identifier, { after, limit })).map(envelope);
  const found = await findNode(stores as ProvisioningStores, identifier);
  return (await stores.events.list(found.id, { after, limit })).map(envelope);
}

/** Whether a node's last event says it was removed (read page by page: a node's events are kept EVENT_RETENTION_DAYS). */
async function removed(stores: Stores, id: string): Promise<boolean> {
  let last: ServiceEvent | undefined;
  for (let after = 0; ; ) {
    const events = await stores.events.list(id, { after, limit: EVENT_PAGE_LIMIT });
    last = events.at(-1) ?? last;
    if (events.length < EVENT_PAGE_LIMIT) break;
    after = events[events.length - 1].sequence;
  }
  return last?.type === "node" && last.action === "removed";
}

/** A workflow's events, in order: its node's events about it (or its own, for a graph run with no node). */
export async function workflowEvents(stores: Stores, id: string, page: EventPage): Promise<Record<string, unknown>[]> {
  const workflow = fitsKey(id) ? await stores.workflows.get(id) : undefined;
  if (!workflow) throw new NotFoundError(`Could not find workflow with identifier ${id}`);
  // Numbered as its graph events are: under its node, or under the graph when it has none.
  const subject = subjectOf({ nodeId: workflow.node === NO_NODE ? null : workflow.node, type: "graph", typeId: workflow.instanceId });
  const limit = limitOf(page);
  const mine: Record<string, unknown>[] = [];
  let after = page.after ?? 0;
  // A node's events are numbered together: read pages of them until this workflow's fill one (bounded).
  for (let pages = 0; pages < 10 && mine.length < limit; pages++) {
    const events = await stores.events.list(subject, { after, limit: EVENT_PAGE_LIMIT });
    for (const event of events)
      if (event.typeId === workflow.instanceId || event.data.graphId === workflow.instanceId) mine.push(envelope(event));
    if (events.length < EVENT_PAGE_LIMIT) break;
    after = events.at(-1)!.sequence;
  }
  return mine.slice(0, limit);
}
