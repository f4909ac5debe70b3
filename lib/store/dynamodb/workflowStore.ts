import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors";
import type { Page, PageRequest } from "../../provisioning/listPage";
import { ACTIVE_CONFLICT, isActive, type Workflow, workflowPosition } from "../../provisioning/workflowEngine/workflow";
import type { WorkflowStore } from "../../provisioning/workflows/workflowStore";
import { rethrowItemTooLarge, transactionReasons } from "./conditions";
import type { Journal } from "./versionedDocuments";
import { type TransactItem, VersionedDocuments } from "./versionedDocuments";

/**
 * Workflows in DynamoDB, shared by every container.
 *
 * Items: `WF / <instanceId>` (the record, a versioned JSON document, also in GSI1 under
 * `NODEWF#<node> / <createdAt>#<instanceId>` so that a node's workflows are one query),
 * `WFID / <record id>` (record id → instanceId) and `ACTIVE / <node>` (the node's running
 * workflow). Starting a workflow writes all three in one transaction, ACTIVE on the condition that
 * it does not exist: so a node has at most one active workflow even when two starts race. When a
 * workflow stops running, its ACTIVE item goes in the same transaction as the record.
 */
const RECORD = "WFID";
const ACTIVE = "ACTIVE";
/** A workflow's partition key by its shard (see SPREAD_SHARDS). */
export const workflowKey = (shard: number) => `WF#${shard}`;
/** The workflow list's shard keys in GSI2 (see LIST_SHARDS). */
export const workflowListKey = (shard: number) => `LISTWF#${shard}`;

export class DynamoWorkflowStore implements WorkflowStore {
  private readonly documents: VersionedDocuments<Workflow>;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
    journal?: Journal<Workflow>,
  ) {
    this.documents = new VersionedDocuments<Workflow>(client, table, "WF", {
      indexKey: (workflow) => ({ gsi1pk: `NODEWF#${workflow.node}`, gsi1sk: workflowPosition(workflow) }),
      journal,
      listKey: workflowListKey,
      spreadKey: workflowKey,
    });
  }

  async create(workflow: Workflow): Promise<Workflow> {
    const { instanceId, node } = workflow;
    const active: TransactItem[] = isActive(workflow)
      ? [{ Put: { TableName: this.table, Item: { pk: ACTIVE, sk: node, instanceId }, ConditionExpression: "attribute_not_exists(pk)" } }]
      : [];
    try {
      await this.documents.transactNew(workflow, [
        ...active,
        this.documents.putNew(instanceId, workflow),
        { Put: { TableName: this.table, Item: { pk: RECORD, sk: workflow.id, instanceId } } },
      ]);
      return workflow;
    } catch (error) {
      const reasons = transactionReasons(error);
      if (!reasons) return rethrowItemTooLarge(error);
      if (active.length > 0 && reasons[0] === "ConditionalCheckFailed") throw new ConflictError(ACTIVE_CONFLICT);
      throw error;
    }
  }

  async get(id: string): Promise<Workflow | undefined> {
    const direct = await this.documents.read(id);
    if (direct) return direct.doc;
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk: RECORD, sk: id }, ConsistentRead: true }));
    return Item ? (await this.documents.read(Item.instanceId as string))?.doc : undefined;
  }

  update(instanceId: string, change: (current: Workflow) => Workflow, known?: Workflow): Promise<Workflow | undefined> {
    return this.documents.update(
      instanceId,
      (current) => {
        const changed = change(current);
        return changed === current ? current : { ...changed, instanceId, id: current.id, node: current.node };
      },
      (current, next) =>
        isActive(current) && !isActive(next)
          ? [
              {
                Delete: {
                  TableName: this.table,
                  Key: { pk: ACTIVE, sk: next.node },
                  ConditionExpression: "attribute_not_exists(pk) OR instanceId = :instanceId",
                  ExpressionAttributeValues: { ":instanceId": instanceId },
                },
              },
            ]
          : [],
      undefined,
      known,
    );
  }

  list(): Promise<Workflow[]> {
    return this.documents.list();
  }

  listForNode(nodeId: string): Promise<Workflow[]> {
    return this.documents.listByIndex(`NODEWF#${nodeId}`);
  }

  page(request: PageRequest): Promise<Page<Workflow>> {
    return this.documents.page(request);
  }

  pageForNode(nodeId: string, request: PageRequest): Promise<Page<Workflow>> {
    return this.documents.pageByIndex(`NODEWF#${nodeId}`, request);
  }

  async activeForNode(nodeId: string): Promise<Workflow | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: ACTIVE, sk: nodeId }, ConsistentRead: true }),
    );
    return Item ? (await this.documents.read(Item.instanceId as string))?.doc : undefined;
  }
}
