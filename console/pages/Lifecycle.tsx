import { useState } from "preact/hooks";
import { get, PROVISIONING, request } from "../api";
import type { MachineNode, ProvisionAction, ProvisionActionList } from "../model";
import { ErrorNote, Section, State, Time, useLoad } from "../ui";

/**
 * The options an action asks the operator for (docs/lifecycle.md), one prompt each; undefined when
 * the operator cancels a prompt. The API checks them again and says what is wrong.
 */
function askOptions(action: string, machine: MachineNode): Record<string, unknown> | undefined {
  const ask = (question: string, answer = ""): string | undefined => prompt(question, answer) ?? undefined;
  switch (action) {
    case "allocate": {
      const owner = ask("Allocate to whom (the owner)?");
      if (owner === undefined) return undefined;
      const purpose = ask("For what (the purpose; may stay empty)?");
      return purpose === undefined ? undefined : { owner, ...(purpose !== "" && { purpose }) };
    }
    case "deploy":
    case "redeploy": {
      const last = machine.provisioning?.deploy;
      const graph = ask("Which install graph?", last?.graph ?? "Graph.InstallImage");
      if (graph === undefined) return undefined;
      const text = ask("Its options (JSON)", JSON.stringify(last?.options ?? { "install-os": { image: "debian-12.raw.zst" } }));
      if (text === undefined) return undefined;
      return { graph, options: JSON.parse(text) };
    }
    case "release": {
      const erase = ask("Erase its disks how: quick (signatures and both ends) or full (every byte, or the device's own erase)?", "quick");
      return erase === undefined ? undefined : { erase };
    }
    case "rescue": {
      const key = ask("The OpenSSH public key to log in with (empty: the node's SSH settings' key)");
      return key === undefined ? undefined : key === "" ? {} : { sshKey: key };
    }
    default:
      return {};
  }
}

/**
 * A machine's life: its provision state, owner and last error, and the actions its state allows,
 * each asked for its options and confirmed; a destructive one (deploy, redeploy, release) only once
 * the operator has typed the machine's name.
 */
export function Lifecycle({ machine, onChange }: { machine: MachineNode; onChange: () => void }) {
  const [error, setError] = useState<string>();
  const actions = useLoad(
    () => get<ProvisionActionList>(`${PROVISIONING}/nodes/${encodeURIComponent(machine.id)}/actions`),
    [machine.id, machine.provisionState],
  );
  const run = async (entry: ProvisionAction) => {
    setError(undefined);
    try {
      const options = askOptions(entry.action, machine);
      if (options === undefined) return;
      if (entry.destructive) {
        const typed = prompt(`${entry.summary}.\nType the machine's name (${machine.name}) to ${entry.action} it.`);
        if (typed !== machine.name) return;
      } else if (!confirm(`${entry.action}: ${entry.summary}?`)) return;
      await request("POST", `${PROVISIONING}/nodes/${encodeURIComponent(machine.id)}/actions`, { action: entry.action, options });
      onChange();
      actions.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const record = machine.provisioning;
  return (
    <Section title="Life cycle">
      <p>
        State: <State state={machine.provisionState} />
        {record?.updatedAt && (
          <span class="muted">
            {" "}
            · since <Time iso={record.updatedAt} />
          </span>
        )}
        {record?.owner && (
          <span>
            {" "}
            · owner <strong>{record.owner}</strong>
            {record.purpose && <span class="muted"> ({record.purpose})</span>}
          </span>
        )}
      </p>
      {machine.provisionState === "failed" && record?.lastError && (
        <p class="error" role="status">
          {record.lastError.action} failed at {record.lastError.task || "its start"} ({record.lastError.reason}): {record.lastError.message}
        </p>
      )}
      <div class="toolbar">
        {(actions.data?.actions ?? [])
          .filter((entry) => entry.allowed)
          .map((entry) => (
            <button key={entry.action} type="button" title={entry.summary} onClick={() => run(entry)}>
              {entry.action}
            </button>
          ))}
      </div>
      <ErrorNote error={error ?? actions.error} />
    </Section>
  );
}
