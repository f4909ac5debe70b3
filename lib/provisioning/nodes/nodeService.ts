import { NotFoundError } from "../../errors";
import { newObjectId } from "../ids";
import { filteredPage, type Page, type PageRequest, recordPosition } from "../listPage";
import { normalizeIdentifier } from "../mac";
import { assertServicesSupported, upsertObmSettings } from "../obmServices/obmSetting";
import type { StoresOf } from "../ports";
import { matchesFilters } from "../queryFilters";
import { assertRecordFits } from "../recordSize";
import { keepRedactedSecrets } from "../secrets";
import { findNode } from "./findNode";
import { buildNode, type Node, type NodeInput, parseNewNode, parseNodePatch } from "./node";

const normalize = (key: string, value: string) => (key === "identifiers" ? normalizeIdentifier(value) : value);

export async function listNodes(stores: StoresOf<"nodes">, filters: Record<string, string[]>): Promise<Node[]> {
  const nodes = await stores.nodes.list();
  if (Object.keys(filters).length === 0) return nodes;
  return nodes.filter((node) => matchesFilters(node, filters, normalize));
}

/** A page of that list, read alone: the filters are applied to at most FILTER_READ_CAP nodes read. */
export function listNodesPage(stores: StoresOf<"nodes">, filters: Record<string, string[]>, request: PageRequest): Promise<Page<Node>> {
  if (Object.keys(filters).length === 0) return stores.nodes.page(request);
  return filteredPage(
    (part) => stores.nodes.page(part),
    (node) => matchesFilters(node, filters, normalize),
    recordPosition,
    request,
  );
}

export async function createNode(stores: StoresOf<"nodes">, body: NodeInput & { name: string }, now: Date): Promise<Node> {
  const input = parseNewNode(body);
  const node = buildNode(input, input.id ?? newObjectId(now), now);
  assertServicesSupported(node.obmSettings, node);
  assertRecordFits(node, "node");
  return stores.nodes.create(node);
}

/** 404 first, then the body; a whole node echoed back (with "REDACTED" secrets) is accepted. */
export async function patchNode(
  stores: StoresOf<"lookups" | "nodes">,
  identifier: string,
  readBody: () => Promise<NodeInput>,
  now: Date,
): Promise<Node> {
  const found = await findNode(stores, identifier);
  const patch = parseNodePatch(await readBody());
  const updated = await stores.nodes.update(
    found.id,
    (current) => {
      const { obmSettings, ...fields } = patch;
      const next = { ...current, ...(keepRedactedSecrets(fields, current) as Partial<Node>), updatedAt: now.toISOString() } as Node;
      if (obmSettings) {
        assertServicesSupported(obmSettings, next);
        next.obmSettings = upsertObmSettings(current.obmSettings, obmSettings);
      }
      assertRecordFits(next, "node");
      return next;
    },
    found,
  );
  if (!updated) throw new NotFoundError(`Could not find node with identifier ${identifier}`);
  return updated;
}
