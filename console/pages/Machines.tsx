import { useMemo, useState } from "preact/hooks";
import { get, getAll, PROVISIONING } from "../api";
import type { MachineNode, Sku, Workflow } from "../model";
import { ErrorNote, link, Section, State, Time, useLoad, usePolling } from "../ui";

const PAGE = 50;

/** What changes often (running workflows) and what changes rarely (SKU names), read together. */
interface Activity {
  active: Map<string, Workflow>;
  skus: Map<string, string>;
}

async function loadActivity(): Promise<Activity> {
  const [active, skus] = await Promise.all([
    getAll<Workflow>(`${PROVISIONING}/workflows?active=true`),
    get<Sku[]>(`${PROVISIONING}/skus`).catch(() => [] as Sku[]),
  ]);
  return {
    active: new Map(active.filter((workflow) => workflow.node).map((workflow) => [workflow.node!, workflow])),
    skus: new Map(skus.map((sku) => [sku.id, sku.name])),
  };
}

type Fleet = Activity & { nodes: MachineNode[] };

/** What a search matches in a machine: its name, id, MACs, type, SKU, tags, OBM service, workflow. */
function haystack(node: MachineNode, fleet: Fleet): string {
  const workflow = fleet.active.get(node.id);
  return [
    node.name,
    node.id,
    ...node.identifiers,
    node.type,
    node.sku ? (fleet.skus.get(node.sku) ?? node.sku) : "",
    ...node.tags,
    ...node.obmSettings.map((setting) => setting.service),
    workflow?.injectableName ?? "",
  ]
    .join(" ")
    .toLowerCase();
}

/** Where to reach the machine: its installed system's first reported address (without its prefix), if it reported one. */
const addressOf = (node: MachineNode): string | undefined => node.addresses?.nics.flatMap((nic) => nic.addresses)[0]?.split("/")[0];

/** How often the list reads what runs (a few requests), and the whole fleet (a request per 500 machines). */
const ACTIVITY_MS = 10_000;
const FLEET_MS = 60_000;

export function Machines() {
  const [partial, setPartial] = useState<MachineNode[]>([]);
  const nodes = useLoad(() => getAll<MachineNode>(`${PROVISIONING}/nodes`, 500, setPartial), []);
  const activity = useLoad(loadActivity, []);
  usePolling(activity.reload, ACTIVITY_MS, true);
  usePolling(nodes.reload, FLEET_MS, true);
  const [query, setQuery] = useState("");
  const [running, setRunning] = useState("any");
  const [page, setPage] = useState(0);

  const data: Fleet = useMemo(
    () => ({ nodes: nodes.data ?? partial, ...(activity.data ?? { active: new Map(), skus: new Map() }) }),
    [nodes.data, partial, activity.data],
  );
  const error = nodes.error ?? activity.error;
  const shown = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return data.nodes.filter((node) => {
      const active = data.active.has(node.id);
      if (running === "running" && !active) return false;
      if (running === "idle" && active) return false;
      const text = haystack(node, data);
      return words.every((word) => text.includes(word));
    });
  }, [data, query, running]);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  const at = Math.min(page, pages - 1);
  const rows = shown.slice(at * PAGE, at * PAGE + PAGE);

  return (
    <Section
      title="Machines"
      actions={
        <span class="actions">
          <span class="muted">{data.nodes.length} known</span>
          <button type="button" onClick={nodes.reload}>
            Refresh
          </button>
        </span>
      }
    >
      <div class="toolbar">
        <label>
          Search{" "}
          <input
            type="search"
            value={query}
            placeholder="name, MAC, SKU, tag, OBM, graph…"
            onInput={(event) => {
              setQuery((event.target as HTMLInputElement).value);
              setPage(0);
            }}
          />
        </label>
        <label>
          Workflow{" "}
          <select
            value={running}
            onChange={(event) => {
              setRunning((event.target as HTMLSelectElement).value);
              setPage(0);
            }}
          >
            <option value="any">any</option>
            <option value="running">running</option>
            <option value="idle">none running</option>
          </select>
        </label>
      </div>
      <ErrorNote error={error} />
      {data.nodes.length === 0 && !error ? (
        <p class="muted">{nodes.data ? "No machines yet: boot one from the network and it appears here." : "Loading…"}</p>
      ) : (
        <div class="scroll">
          <table class="machines">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">State</th>
                <th scope="col">Address</th>
                <th scope="col">Owner</th>
                <th scope="col">Power</th>
                <th scope="col">Site</th>
                <th scope="col">MACs</th>
                <th scope="col">SKU</th>
                <th scope="col">Tags</th>
                <th scope="col">OBM</th>
                <th scope="col">Workflow</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((node) => {
                const workflow = data.active.get(node.id);
                return (
                  <tr key={node.id}>
                    <td>
                      <a href={link("machines", node.id)}>{node.name}</a>
                    </td>
                    <td>
                      <State state={node.provisionState} />
                    </td>
                    <td class="mono">{addressOf(node) ?? <span class="muted">—</span>}</td>
                    <td>{node.provisioning?.owner ?? <span class="muted">—</span>}</td>
                    <td>{node.power ? <State state={`power ${node.power.state}`} /> : <span class="muted">unknown</span>}</td>
                    <td>{node.site ?? <span class="muted">none</span>}</td>
                    <td class="mono">{node.identifiers.join(", ")}</td>
                    <td>{node.sku ? (data.skus.get(node.sku) ?? node.sku) : <span class="muted">—</span>}</td>
                    <td>{node.tags.join(", ")}</td>
                    <td>{node.obmSettings.map((setting) => setting.service).join(", ")}</td>
                    <td>
                      {workflow ? (
                        <a href={link("workflows", workflow.instanceId)}>
                          {workflow.injectableName} <State state={workflow._status} />
                        </a>
                      ) : (
                        <span class="muted">none running</span>
                      )}
                    </td>
                    <td>
                      <Time iso={node.createdAt} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={at === 0} onClick={() => setPage(at - 1)}>
          Previous
        </button>
        <span>
          {shown.length === 0 ? "0" : `${at * PAGE + 1}–${at * PAGE + rows.length}`} of {shown.length}
        </span>
        <button type="button" disabled={at >= pages - 1} onClick={() => setPage(at + 1)}>
          Next
        </button>
      </nav>
    </Section>
  );
}
