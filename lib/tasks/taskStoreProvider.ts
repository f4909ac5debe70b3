import { ConfigError } from "../errors";
import { settings } from "../config/settings";
import { processSingleton } from "../store/processSingleton";
import { MemoryTaskStore } from "./memoryTaskStore";
import type { TaskStore } from "./taskStore";

/** The task store this container uses, chosen by the STORE setting. */
export function taskStore(): TaskStore {
  const config = settings();
  if (config.store !== "memory") throw new ConfigError(`STORE=${config.store} is not available for tasks yet`);
  return processSingleton("taskStore.memory", () =>
    new MemoryTaskStore({ capacity: config.memoryStoreCapacity, maxBytes: config.memoryStoreMaxBytes }),
  );
}
