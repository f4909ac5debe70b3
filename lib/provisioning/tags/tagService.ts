import { ConflictError, isDomainError, NotFoundError, ValidationError } from "../../errors";
import type { ApiContext } from "../apiContext";
import { findNode } from "../nodes/findNode";
import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import { assertRecordFits, fitsKey } from "../recordSize";
import { checkRules } from "../rules/rules";
import type { Workflow } from "../workflowEngine/workflow";
import { startWorkflow, type WorkflowStores } from "../workflows/workflowService";
import type { Tag } from "./tag";
import { addTags, applyTags } from "./tagMatching";

/** Most tags a node carries: as the node schema's bound (each is an index item written with the node). */
const NODE_TAGS_MAX = 32;

const notFound = (name: string) => new NotFoundError(`name ${name} was not found`);

export const listTags = (stores: StoresOf<"tags">): Promise<Tag[]> => stores.tags.list();

export async function getTag(stores: StoresOf<"tags">, name: string): Promise<Tag> {
  const tag = fitsKey(name) ? await stores.tags.get(name) : undefined;
  if (!tag) throw notFound(name);
  return tag;
}

/** POST /tags (RackHD era C): 409 for a taken name, 201 with the record; then every node gets the tags its catalogs earn. */
export async function createTag(stores: StoresOf<"catalogs" | "nodes" | "tags">, body: Record<string, unknown>, now: Date): Promise<Tag> {
  if (typeof body.name !== "string" || body.name === "") throw new ValidationError("name (string) is required");
  checkRules(body.rules, "Tag");
  const stamp = now.toISOString();
  const tag: Tag = { id: body.name, name: body.name, rules: body.rules, createdAt: stamp, updatedAt: stamp };
  assertRecordFits(tag, "tag");
  try {
    await stores.tags.create(tag);
  } catch (error) {
    if (isDomainError(error) && error.kind === "conflict") throw new ConflictError("tag name already exists");
    throw error;
  }
  const nodes = await stores.nodes.list();
  for (const node of nodes) await applyTags(stores, node, [tag], now);
  return tag;
}

/** DELETE /tags/{name}: the record only; nodes keep the name (RackHD). */
export async function deleteTag(stores: StoresOf<"tags">, name: string): Promise<void> {
  if (!(fitsKey(name) && (await stores.tags.delete(name)))) throw notFound(name);
}

export const tagNodes = (stores: StoresOf<"nodes">, name: string): Promise<Node[]> =>
  fitsKey(name) ? stores.nodes.withTag(name) : Promise.resolve([]);

/** POST /tags/{name}/nodes/workflows?name=: the graph on every node with the tag; answers the workflows started (202). */
export async function runOnTagged(
  stores: WorkflowStores,
  tag: string,
  request: { name: unknown; options: unknown },
  api: ApiContext,
  now: Date,
): Promise<Workflow[]> {
  const started: Workflow[] = [];
  for (const node of await tagNodes(stores, tag)) {
    try {
      started.push(await startWorkflow(stores, node.id, request, api, now));
    } catch (error) {
      // A node that is busy is left out; a bad graph name or options is the same for every node.
      if (isDomainError(error) && error.message.startsWith("Unable to run multiple")) continue;
      throw error;
    }
  }
  return started;
}

export async function nodeTags(stores: StoresOf<"lookups" | "nodes">, identifier: string): Promise<string[]> {
  return (await findNode(stores, identifier)).tags;
}

/** PATCH /nodes/{id}/tags `{"tags": […]}`: add-to-set; answers the posted array (RackHD). */
export async function addNodeTags(stores: StoresOf<"lookups" | "nodes">, identifier: string, tags: string[], now: Date): Promise<string[]> {
  const node = await findNode(stores, identifier);
  const total = new Set([...node.tags, ...tags]).size;
  if (total > NODE_TAGS_MAX) throw new ValidationError(`A node carries at most ${NODE_TAGS_MAX} tags (this would make ${total})`);
  await addTags(stores, node, tags, now);
  return tags;
}

/** DELETE /nodes/{id}/tags/{tag}: answers the tag name (RackHD), also when the node did not have it. */
export async function removeNodeTag(stores: StoresOf<"lookups" | "nodes">, identifier: string, tag: string, now: Date): Promise<string> {
  const node = await findNode(stores, identifier);
  const stamp = now.toISOString();
  if (node.tags.includes(tag)) {
    await stores.nodes.update(
      node.id,
      (current) => (current.tags.includes(tag) ? { ...current, tags: current.tags.filter((t) => t !== tag), updatedAt: stamp } : current),
      node,
    );
  }
  return tag;
}
