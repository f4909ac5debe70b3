import { useState } from "preact/hooks";
import { get, PROVISIONING, request } from "../api";
import { ErrorNote, Section, useLoad } from "../ui";

interface Rule {
  path: string;
  equals: string;
}

/** A value as typed: JSON when it parses (2, true), else the text. */
const typed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

function RuleForm({ kind, onDone }: { kind: "skus" | "tags"; onDone: () => void }) {
  const [rules, setRules] = useState<Rule[]>([{ path: "", equals: "" }]);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.target as HTMLFormElement).get("name"));
    try {
      setError(undefined);
      await request("POST", `${PROVISIONING}/${kind}`, {
        name,
        rules: rules.filter((rule) => rule.path).map((rule) => ({ path: rule.path, equals: typed(rule.equals) })),
      });
      setDone(`${kind === "skus" ? "SKU" : "Tag"} ${name} defined; matching machines get it now.`);
      onDone();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const set = (at: number, change: Partial<Rule>) => setRules(rules.map((rule, i) => (i === at ? { ...rule, ...change } : rule)));
  return (
    <form class="stack" onSubmit={submit} aria-label={kind === "skus" ? "Define a SKU" : "Define a tag"}>
      <label>
        Name <input name="name" required />
      </label>
      {rules.map((rule, at) => (
        <div class="row" key={at}>
          <label>
            Catalog path{" "}
            <input
              value={rule.path}
              placeholder="dmi.System Information.Product Name"
              onInput={(e) => set(at, { path: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label>
            equals{" "}
            <input
              value={rule.equals}
              placeholder="VirtualBox"
              onInput={(e) => set(at, { equals: (e.target as HTMLInputElement).value })}
            />
          </label>
        </div>
      ))}
      <div class="row">
        <button type="button" onClick={() => setRules([...rules, { path: "", equals: "" }])}>
          Add a rule
        </button>
        <button type="submit">Define</button>
      </div>
      {done && <p role="status">{done}</p>}
      <ErrorNote error={error} />
    </form>
  );
}

/** A SKU (by id) or a tag (by name) as listed. */
interface RuleSet {
  id?: string;
  name: string;
  rules?: { path: string; [test: string]: unknown }[];
}

const ruleText = ({ path, ...test }: { path: string; [test: string]: unknown }): string =>
  `${path} ${Object.entries(test)
    .map(([operator, value]) => `${operator} ${JSON.stringify(value)}`)
    .join(", ")}`;

/** SKUs and tags are both named rule sets over catalogs: one section each, the same list and form. */
function RuleSets({ kind, title, what }: { kind: "skus" | "tags"; title: string; what: string }) {
  const existing = useLoad(() => get<RuleSet[]>(`${PROVISIONING}/${kind}`), []);
  const [error, setError] = useState<string>();
  const remove = async (set: RuleSet) => {
    try {
      setError(undefined);
      await request("DELETE", `${PROVISIONING}/${kind}/${encodeURIComponent(kind === "skus" ? set.id! : set.name)}`);
      existing.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <Section title={title}>
      <p class="muted">{what}</p>
      {(existing.data ?? []).length > 0 && (
        <ul class="rule-sets">
          {existing.data!.map((set) => (
            <li key={set.id ?? set.name}>
              <strong>{set.name}</strong> <span class="muted mono">{(set.rules ?? []).map(ruleText).join("; ")}</span>
              <button type="button" class="danger" onClick={() => remove(set)} aria-label={`Delete ${set.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <RuleForm kind={kind} onDone={existing.reload} />
      <ErrorNote error={error ?? existing.error} />
    </Section>
  );
}

export function Define() {
  return (
    <>
      <RuleSets kind="skus" title="SKUs" what="A SKU groups machines whose catalogs pass every rule." />
      <RuleSets kind="tags" title="Tags" what="A tag marks machines whose catalogs pass its rules." />
    </>
  );
}
