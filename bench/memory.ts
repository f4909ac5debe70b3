import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface MemoryFigure {
  what: string;
  count: number;
  heapMB: number;
  bytesPerItem: number;
}

async function measureHeap(kind: "tasks" | "nodes", count: number): Promise<MemoryFigure> {
  const { stdout } = await run(
    process.execPath,
    ["--expose-gc", "--require", "tsx/cjs", join(__dirname, "memoryChild.ts"), kind, String(count)],
    {
      cwd: join(__dirname, ".."),
      maxBuffer: 1 << 20,
    },
  );
  const result = JSON.parse(stdout);
  return {
    what: kind === "tasks" ? "tasks" : "nodes, each with a finished Graph.InstallCentOS workflow",
    count,
    heapMB: Math.round((result.heapBytes / 1024 / 1024) * 10) / 10,
    bytesPerItem: result.bytesPerItem,
  };
}

/** Heap per `tasks` tasks and per `nodes` nodes with a finished workflow each. */
export async function memoryFigures(tasks: number, nodes: number): Promise<MemoryFigure[]> {
  return [await measureHeap("tasks", tasks), await measureHeap("nodes", nodes)];
}
