import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { count } from "../../invocation";

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
      if (read > 0) count("DynamoReadUnits", read);
      if (write > 0) count("DynamoWriteUnits", write);
      return answer;
    },
    { step: "initialize", name: "capacityMeter" },
  );
}
