import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import type { NewTask, Task, TaskPatch } from "../../tasks/task";
import type { TaskStore } from "../../tasks/taskStore";
import { conditionally, isConditionFailure, queryAll, rethrowItemTooLarge, transactionReasons } from "./conditions";
import { writeTogether } from "./writeTogether";

/**
 * Tasks in DynamoDB, shared by every container.
 *
 * Items: `TASK / <id, zero-padded>` per task (so a query returns creation order) and one counter
 * `TASKS / LAST` holding the id of the last stored task. The seed's id rule (last + 1) holds
 * under many writers because the engine does the arithmetic: a create adds 1 to the counter
 * atomically (`ADD`), so no two creates get the same id and none has to retry. Deleting the last
 * task moves the counter back to the task before it, on the condition that no create moved it
 * meanwhile, so the deleted id comes back as the seed says. A create that fails after taking its
 * id (the store throttled or unreachable) gives the id back the same way, on the condition that
 * no create took one since; when the store cannot be reached for that either, this container
 * gives it back before its next create, so that a failure leaves no gap in the ids. A counter
 * found behind the tasks (an id already stored) is moved up to the last task, and the create takes
 * the next id.
 */
const TASK = "TASK";
const COUNTER = { pk: "TASKS", sk: "LAST" };
const sortKey = (id: number): string => String(id).padStart(16, "0");
/** Creates that find their id taken (the counter behind the tasks) before the error is the caller's. */
const MAX_ID_ATTEMPTS = 3;

const toTask = (item: Record<string, unknown>): Task => ({
  id: item.id as number,
  title: item.title as string,
  description: item.description as string,
  done: item.done as boolean,
});

export class DynamoTaskStore implements TaskStore {
  /** Ids taken by creates that failed, not yet given back (the store was out of reach for that too). */
  private readonly takenByFailures = new Set<number>();

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async list(): Promise<Task[]> {
    const items = await queryAll<Record<string, unknown>>(this.client, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": TASK },
      ConsistentRead: true,
    });
    return items.map(toTask);
  }

  async get(id: number): Promise<Task | undefined> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.table, Key: { pk: TASK, sk: sortKey(id) }, ConsistentRead: true }),
    );
    return Item && toTask(Item);
  }

  async create(fields: NewTask): Promise<Task> {
    for (const id of [...this.takenByFailures].sort((a, b) => b - a)) await this.giveBack(id);
    for (let attempt = 1; ; attempt += 1) {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: COUNTER,
          UpdateExpression: "ADD lastId :one",
          ExpressionAttributeValues: { ":one": 1 },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      const task: Task = { id: Number(Attributes!.lastId), title: fields.title, description: fields.description, done: false };
      try {
        await writeTogether(this.client, this.table, [
          {
            Put: {
              TableName: this.table,
              Item: { pk: TASK, sk: sortKey(task.id), ...task },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ]);
        return task;
      } catch (error) {
        if (transactionReasons(error)?.[0] === "ConditionalCheckFailed" && attempt < MAX_ID_ATTEMPTS) {
          await this.catchCounterUp();
          continue;
        }
        this.takenByFailures.add(task.id);
        await this.giveBack(task.id).catch(() => undefined); // kept in takenByFailures: tried again before the next create
        rethrowItemTooLarge(error);
      }
    }
  }

  /**
   * The id the counter gave already holds a task, so the counter is behind the tasks: a write that
   * timed out landed after its id was given back, or the engine lost the counter's last ADD (DynamoDB
   * Local killed). The counter moves up to the last stored task, on the condition that it is still
   * below it (creates meanwhile only move it on), and the create takes the next id.
   */
  private async catchCounterUp(): Promise<void> {
    const last = await this.lastTaskId(); // 0 when every task was deleted since: nothing to catch up
    await conditionally(
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: COUNTER,
          UpdateExpression: "SET lastId = :last",
          ConditionExpression: "lastId < :last",
          ExpressionAttributeValues: { ":last": last },
        }),
      ),
    );
  }

  /**
   * The id a failed create took goes back to the counter: `id - 1` is what the counter held before
   * that create's ADD. Only if the counter still holds `id` (no create since) and no task `id` was
   * stored after all (a write that timed out may have landed): both in one transaction.
   */
  private async giveBack(id: number): Promise<void> {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: this.table,
                Key: { pk: TASK, sk: sortKey(id) },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            {
              Update: {
                TableName: this.table,
                Key: COUNTER,
                UpdateExpression: "SET lastId = :previous",
                ConditionExpression: "lastId = :taken",
                ExpressionAttributeValues: { ":previous": id - 1, ":taken": id },
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (!transactionReasons(error)) throw error;
      // A create came since, or the task is there: the id is in use, nothing to give back.
    }
    this.takenByFailures.delete(id);
  }

  /** Sets only the supplied fields, so a concurrent update of another field is never lost. */
  async update(id: number, patch: TaskPatch): Promise<Task | undefined> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets: string[] = [];
    for (const [key, value] of Object.entries(patch)) {
      names[`#${key}`] = key;
      values[`:${key}`] = value;
      sets.push(`#${key} = :${key}`);
    }
    if (sets.length === 0) return this.get(id);
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: TASK, sk: sortKey(id) },
          UpdateExpression: `SET ${sets.join(", ")}`,
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: "ALL_NEW",
        }),
      );
      return toTask(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      return rethrowItemTooLarge(error);
    }
  }

  async delete(id: number): Promise<boolean> {
    const deleted = await conditionally(
      this.client.send(
        new DeleteCommand({ TableName: this.table, Key: { pk: TASK, sk: sortKey(id) }, ConditionExpression: "attribute_exists(pk)" }),
      ),
    );
    if (!deleted) return false;
    await this.moveCounterBackFrom(id);
    return true;
  }

  /** The id of the last stored task (below `below` when given), strongly consistent; 0 when there is none. */
  private async lastTaskId(below?: number): Promise<number> {
    const { Items } = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: below === undefined ? "pk = :pk" : "pk = :pk AND sk < :sk",
        ExpressionAttributeValues: below === undefined ? { ":pk": TASK } : { ":pk": TASK, ":sk": sortKey(below) },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return Items?.[0] ? Number(Items[0].id) : 0;
  }

  /** If `id` was the last task, the counter goes back to the task before it (0 when none). */
  private async moveCounterBackFrom(id: number): Promise<void> {
    const previous = await this.lastTaskId(id);
    // A failed condition: not the last task, or a create has moved the counter on since; leave it.
    await conditionally(
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: COUNTER,
          UpdateExpression: "SET lastId = :previous",
          ConditionExpression: "lastId = :deleted",
          ExpressionAttributeValues: { ":previous": previous, ":deleted": id },
        }),
      ),
    );
  }
}
