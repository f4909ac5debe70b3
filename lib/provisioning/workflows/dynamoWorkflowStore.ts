import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors";
import { queryAll, retry, RETRY, rethrowItemTooLarge, transactionReasons } from "../../store/dynamodb/conditions";
import { ACTIVE_CONFLICT } from "./memoryWorkflowStore";
import { isActive, type Workflow } from "./workflow";
import type { WorkflowStore } from "./workflowStore";

/**
 * Workflows in DynamoDB, shared by every container.
 *
 * Items: `WF / <instanceId>` (the record as JSON, with a version), `WFID / <record id>` (record id →
 * instanceId), `NODEWF#<node> / <createdAt>#<instanceId>` (a node's workflows in order) and
 * `ACTIVE / <node>` (the node's running workflow). Starting a workflow writes all four in one
 * transaction, the last on the condition that it does not exist: so a node has at most one active
 * workflow even when two starts race. When a workflow stops running, its ACTIVE item goes in the
 * same transaction as the record.
 */
const WF = "WF";
const RECORD = "WFID";
const ACTIVE = "ACTIVE";
const ATTEMPTS = 12;

interface WorkflowItem {
  pk: string;
  sk: string;
  doc: string;
  version: number;
  createdAt: string;
}

export class DynamoWorkflowStore implements WorkflowStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(workflow: Workflow): Promise<Workflow> {
    const { instanceId, node } = workflow;
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            ...(isActive(workflow)
              ? [{ Put: { TableName: this.table, Item: { pk: ACTIVE, sk: node, instanceId }, ConditionExpression: "attribute_not_exists(pk)" } }]
              : []),
            { Put: { TableName: this.table, Item: this.item(workflow, 1), ConditionExpression: "attribute_not_exists(pk)" } },
            { Put: { TableName: this.table, Item: { pk: RECORD, sk: workflow.id, instanceId } } },
            { Put: { TableName: this.table, Item: { pk: `NODEWF#${node}`, sk: `${workflow.createdAt}#${instanceId}`, instanceId } } },
          ],
        }),
      );
      return workflow;
    } catch (error) {
      const reasons = transactionReasons(error);
      if (!reasons) return rethrowItemTooLarge(error);
      if (isActive(workflow) && reasons[0] === "ConditionalCheckFailed") throw new ConflictError(ACTIVE_CONFLICT);
      throw error;
    }
  }

  async get(id: string): Promise<Workflow | undefined> {
    const direct = await this.read(id);
    if (direct) return direct.workflow;
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk: RECORD, sk: id }, ConsistentRead: true }));
    return Item ? (await this.read(Item.instanceId as string))?.workflow : undefined;
  }

  async update(instanceId: string, change: (current: Workflow) => Workflow): Promise<Workflow | undefined> {
    return retry(ATTEMPTS, async () => {
      const current = await this.read(instanceId);
      if (!current) return undefined;
      const changed = change(current.workflow);
      if (changed === current.workflow) return current.workflow;
      const next: Workflow = { ...changed, instanceId, id: current.workflow.id, node: current.workflow.node };
      const stopped = isActive(current.workflow) && !isActive(next);
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.table,
                  Item: this.item(next, current.version + 1),
                  ConditionExpression: "version = :version",
                  ExpressionAttributeValues: { ":version": current.version },
                },
              },
              ...(stopped
                ? [{
                    Delete: {
                      TableName: this.table,
                      Key: { pk: ACTIVE, sk: next.node },
                      ConditionExpression: "attribute_not_exists(pk) OR instanceId = :instanceId",
                      ExpressionAttributeValues: { ":instanceId": instanceId },
                    },
                  }]
                : []),
            ],
          }),
        );
        return next;
      } catch (error) {
        if (!transactionReasons(error)) return rethrowItemTooLarge(error);
        return RETRY; // changed meanwhile (another request refreshed it): apply the change to the newer record
      }
    });
  }

  async list(): Promise<Workflow[]> {
    const items = await queryAll<WorkflowItem>(this.client, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": WF },
      ConsistentRead: true,
    });
    return items.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)).map((item) => JSON.parse(item.doc) as Workflow);
  }

  async listForNode(nodeId: string): Promise<Workflow[]> {
    const index = await queryAll<{ instanceId: string }>(this.client, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": `NODEWF#${nodeId}` },
      ConsistentRead: true,
    });
    const workflows = await Promise.all(index.map((entry) => this.read(entry.instanceId)));
    return workflows.flatMap((found) => (found ? [found.workflow] : []));
  }

  async activeForNode(nodeId: string): Promise<Workflow | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk: ACTIVE, sk: nodeId }, ConsistentRead: true }));
    return Item ? (await this.read(Item.instanceId as string))?.workflow : undefined;
  }

  private async read(instanceId: string): Promise<{ workflow: Workflow; version: number } | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk: WF, sk: instanceId }, ConsistentRead: true }));
    return Item && { workflow: JSON.parse(Item.doc as string) as Workflow, version: Item.version as number };
  }

  private item(workflow: Workflow, version: number): WorkflowItem {
    return { pk: WF, sk: workflow.instanceId, doc: JSON.stringify(workflow), version, createdAt: workflow.createdAt };
  }
}
