// Heap held by the memory stores, measured in a fresh process with --expose-gc.

import { randomUUID } from "node:crypto";
import { apiContextFor } from "../lib/provisioning/apiContext";
import { graphDefinition } from "../lib/provisioning/graphs/graphLibrary";
import { newObjectId } from "../lib/provisioning/ids";
import { buildNode, parseNewNode } from "../lib/provisioning/nodes/node";
import { buildWorkflow } from "../lib/provisioning/workflowEngine/buildWorkflow";
import { advanceWorkflow, completeWaitingTask } from "../lib/provisioning/workflowEngine/progress";
import { MemoryNodeStore } from "../lib/store/memory/nodeStore";
import { MemoryTaskStore } from "../lib/store/memory/taskStore";
import { MemoryWorkflowStore } from "../lib/store/memory/workflowStore";

const gc = (globalThis as { gc?: () => void }).gc!;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

async function main(): Promise<void> {
  const [kind, countText] = process.argv.slice(2);
  const count = Number(countText);
  const limits = { capacity: 10_000_000, maxBytes: Number.MAX_SAFE_INTEGER };
  const before = heap();
  const keep: unknown[] = [];
  if (kind === "tasks") {
    const store = new MemoryTaskStore(limits);
    keep.push(store);
    for (let i = 1; i <= count; i += 1)
      await store.create({ title: `Task number ${i}`, description: "Milk, Cheese, Pizza, Fruit, Tylenol" });
  } else {
    const nodes = new MemoryNodeStore(limits);
    const workflows = new MemoryWorkflowStore(limits);
    keep.push(nodes, workflows);
    const api = apiContextFor("http://172.31.128.1:8080");
    const graph = graphDefinition("Graph.InstallCentOS")!;
    const noop = [{ service: "noop-obm-service", config: {} }];
    // One real finished workflow; the others are copies of it with their own ids (building each
    // would spend 20 ms on the root password's SHA-512 crypt, which changes nothing in its size).
    const template = completeWaitingTask(
      advanceWorkflow(
        buildWorkflow(
          graph,
          { "install-os": { version: "7.0", repo: "{{api.server}}/Centos/7.0", rootPassword: "root" } },
          "0".repeat(24),
          api,
          new Date(),
        ),
        noop,
        new Date(),
      ),
      noop,
      new Date(),
    );
    const templateText = JSON.stringify(template);
    const templateIds = [template.id, template.instanceId, ...Object.keys(template.tasks), "0".repeat(24)];
    for (let i = 1; i <= count; i += 1) {
      const mac = `52:54:00:${[16, 8, 0].map((s) => ((i >> s) & 0xff).toString(16).padStart(2, "0")).join(":")}`;
      const id = i.toString(16).padStart(24, "0");
      const now = new Date();
      await nodes.create(buildNode(parseNewNode({ name: mac, identifiers: [mac], obmSettings: noop }), id, now));
      const fresh = [newObjectId(now), randomUUID(), ...Object.keys(template.tasks).map(() => randomUUID()), id];
      let text = templateText;
      for (const [n, old] of templateIds.entries()) text = text.split(old).join(fresh[n]);
      await workflows.create(JSON.parse(text));
    }
  }
  const after = heap();
  process.stdout.write(
    JSON.stringify({ kind, count, heapBytes: after - before, bytesPerItem: Math.round((after - before) / count), kept: keep.length }),
  );
}

void main();
