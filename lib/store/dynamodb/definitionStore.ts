import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { DefinitionStore, Stored } from "../../provisioning/graphs/definitionStore";
import type { GraphDefinition, LibraryTask } from "../../provisioning/graphs/graphTypes";
import { queryAll, rethrowItemTooLarge } from "./conditions";

/**
 * User-defined graphs and tasks in DynamoDB, shared by every container: `GRAPHDEF / <name>` and
 * `TASKDEF / <name>`, the definition as a JSON string (a user's options may nest deeper than
 * DynamoDB's 32 levels of maps). A library read is one query of its partition, in name order.
 */
const GRAPHS = "GRAPHDEF";
const TASKS = "TASKDEF";

interface Item {
  doc: string;
  createdAt: string;
  updatedAt: string;
}

export class DynamoDefinitionStore implements DefinitionStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  putGraph(graph: GraphDefinition, now: Date): Promise<Stored<GraphDefinition>> {
    return this.put(GRAPHS, graph.injectableName, graph, now);
  }

  putTask(task: LibraryTask, now: Date): Promise<Stored<LibraryTask>> {
    return this.put(TASKS, task.injectableName, task, now);
  }

  graph(name: string): Promise<GraphDefinition | undefined> {
    return this.get(GRAPHS, name);
  }

  task(name: string): Promise<LibraryTask | undefined> {
    return this.get(TASKS, name);
  }

  graphs(): Promise<GraphDefinition[]> {
    return this.all(GRAPHS);
  }

  tasks(): Promise<LibraryTask[]> {
    return this.all(TASKS);
  }

  private async put<T>(pk: string, name: string, definition: T, now: Date): Promise<Stored<T>> {
    const stamp = now.toISOString();
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk, sk: name },
          UpdateExpression: "SET doc = :doc, updatedAt = :now, createdAt = if_not_exists(createdAt, :now)",
          ExpressionAttributeValues: { ":doc": JSON.stringify(definition), ":now": stamp },
          ReturnValues: "ALL_NEW",
        }),
      );
      return { definition, createdAt: Attributes!.createdAt as string, updatedAt: stamp };
    } catch (error) {
      return rethrowItemTooLarge(error);
    }
  }

  private async get<T>(pk: string, name: string): Promise<T | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: { pk, sk: name }, ConsistentRead: true }));
    return Item ? (JSON.parse((Item as Item).doc) as T) : undefined;
  }

  private async all<T>(pk: string): Promise<T[]> {
    const items = await queryAll<Item>(this.client, {
      TableName: this.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": pk },
      ConsistentRead: true,
    });
    return items.map((item) => JSON.parse(item.doc) as T);
  }
}
