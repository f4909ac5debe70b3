import { settings } from "../config/settings";
import { processSingleton } from "../store/processSingleton";
import { MemoryTaskStore } from "./memoryTaskStore";
import type { TaskStore } from "./taskStore";

/** The task store this container uses, chosen by the STORE setting. */
export function taskStore(): TaskStore {
  const config = settings();
  if (config.store === "dynamodb") {
    return processSingleton(`taskStore.dynamodb.${config.dynamodbTable}`, () => {
      // Loaded only in this mode, so memory-mode containers never load the AWS SDK.
      const { DynamoTaskStore } = require("./dynamoTaskStore") as typeof import("./dynamoTaskStore");
      const { documentClient } = require("../store/dynamodb/client") as typeof import("../store/dynamodb/client");
      return new DynamoTaskStore(documentClient(config), config.dynamodbTable);
    });
  }
  return processSingleton("taskStore.memory", () =>
    new MemoryTaskStore({ capacity: config.memoryStoreCapacity, maxBytes: config.memoryStoreMaxBytes }),
  );
}
