import { graphlib, layout } from "@dagrejs/dagre";
import type { WorkflowTask } from "./model";

export const BOX = { width: 190, height: 56 };

export interface PlacedTask {
  id: string;
  x: number;
  y: number;
}
export interface PlacedEdge {
  from: string;
  to: string;
  /** The state the task waits for ("succeeded", "finished", …). */
  when: string;
  points: { x: number; y: number }[];
}
export interface DagLayout {
  tasks: PlacedTask[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/** Lays a workflow's tasks out top to bottom with dagre: a box per task, an arrow per `waitOn`. */
export function layOut(tasks: Record<string, WorkflowTask>): DagLayout {
  const graph = new graphlib.Graph();
  graph.setGraph({ rankdir: "TB", nodesep: 28, ranksep: 44, marginx: 12, marginy: 12 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const id of Object.keys(tasks)) graph.setNode(id, { ...BOX });
  for (const [id, task] of Object.entries(tasks))
    for (const [waited, when] of Object.entries(task.waitingOn)) if (tasks[waited]) graph.setEdge(waited, id, { when });
  layout(graph);
  const { width = 0, height = 0 } = graph.graph();
  return {
    tasks: graph.nodes().map((id) => ({ id, x: graph.node(id).x, y: graph.node(id).y })),
    edges: graph.edges().map((edge) => {
      const label = graph.edge(edge) as { points: { x: number; y: number }[]; when: string };
      return { from: edge.v, to: edge.w, when: label.when, points: label.points };
    }),
    width,
    height,
  };
}
