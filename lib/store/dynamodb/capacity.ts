import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { count } from "../../invocation";
import { logLine, logs } from "../../logger";

/** About the size DynamoDB bills an item by: its attributes' names and values (an estimate for the debug line). */
export function itemBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    bytes += name.length;
    if (typeof value === "string") bytes += Buffer.byteLength(value);
    else if (ArrayBuffer.isView(value)) bytes += value.byteLength;
    else if (typeof value === "number") bytes += 8;
    else if (value !== undefined) bytes += Buffer.byteLength(JSON.stringify(value) ?? "");
  }
  return bytes;
}

/**
 * The partition keys a call touches (its keys' `pk`, its index's or its query's value), and the
 * size of each item it writes whole (0 for a key only), for the debug line: a bench splits a
 * transaction's write units over its items by them (bench/bootPath.ts).
 */
export function touched(input: Record<string, unknown>): { pk: string; bytes: number }[] {
  const keys: { pk: string; bytes: number }[] = [];
  const add = (item: unknown, whole = false) => {
    const pk = (item as { pk?: unknown } | undefined)?.pk;
    if (typeof pk === "string") keys.push({ pk, bytes: whole ? itemBytes(item as Record<string, unknown>) : 0 });
  };
  add(input.Key);
  add(input.Item, true);
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  if (typeof input.KeyConditionExpression === "string" && values)
    keys.push({ pk: String(values[":pk"] ?? values[":key"] ?? "?"), bytes: 0 });
  for (const entry of (input.TransactItems as Record<string, { Key?: unknown; Item?: unknown }>[] | undefined) ?? [])
    for (const part of Object.values(entry)) {
      add(part.Key);
      add(part.Item, true);
    }
  type Requests = { Keys?: unknown[] } | { PutRequest?: { Item: unknown }; DeleteRequest?: { Key: unknown } }[];
  for (const table of Object.values((input.RequestItems as Record<string, Requests> | undefined) ?? {})) {
    // BatchGetItem: {Keys}; BatchWriteItem: a list of put and delete requests.
    if (!Array.isArray(table)) for (const key of table.Keys ?? []) add(key);
    else
      for (const request of table) {
        add(request.PutRequest?.Item, true);
        add(request.DeleteRequest?.Key);
      }
  }
  return keys;
}

interface Consumed {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const WRITES = /Put|Update|Delete|TransactWrite|BatchWrite/;

/** The read and write units a call's answer says it consumed (ReturnConsumedCapacity: TOTAL). */
export function unitsOf(commandName: string, output: unknown): { read: number; write: number } {
  const consumed = (output as { ConsumedCapacity?: Consumed | Consumed[] } | undefined)?.ConsumedCapacity;
  const isWrite = WRITES.test(commandName);
  let read = 0;
  let write = 0;
  for (const c of [consumed ?? []].flat()) {
    // Reads report CapacityUnits (or ReadCapacityUnits), writes WriteCapacityUnits or CapacityUnits.
    const units = c.CapacityUnits ?? (isWrite ? c.WriteCapacityUnits : c.ReadCapacityUnits) ?? 0;
    if (isWrite) write += units;
    else read += units;
  }
  return { read, write };
}

/**
 * Every call of the client asks DynamoDB what it consumed (ReturnConsumedCapacity: TOTAL, which
 * costs nothing) and counts it on the running invocation: DynamoCalls, DynamoReadUnits and
 * DynamoWriteUnits go into its metrics line and its request log line (issue 28: what a route, an
 * install, a fleet costs, measured rather than estimated).
 */
export function meterCapacity(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = "TOTAL";
      const answer = await next(args);
      const { read, write } = unitsOf(context.commandName ?? "", answer.output);
      count("DynamoCalls");
      // LOG_LEVEL=debug: each call, its partition keys (ids and MACs, never a value) and its units.
      if (logs("debug"))
        logLine({
          level: "debug",
          msg: "dynamodb",
          command: context.commandName,
          touched: touched(args.input as Record<string, unknown>),
          read,
          write,
        });
      if (read > 0) count("DynamoReadUnits", read);
      if (write > 0) count("DynamoWriteUnits", write);
      return answer;
    },
    { step: "initialize", name: "capacityMeter" },
  );
}
