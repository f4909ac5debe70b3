import { useState } from "preact/hooks";
import { get, PROVISIONING, request } from "../api";
import type { Sku } from "../model";
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

export function Define() {
  const skus = useLoad(() => get<Sku[]>(`${PROVISIONING}/skus`), []);
  const tags = useLoad(() => get<{ name: string }[]>(`${PROVISIONING}/tags`), []);
  return (
    <>
      <Section title="SKUs">
        <p class="muted">
          A SKU groups machines whose catalogs pass every rule. Now: {skus.data?.map((sku) => sku.name).join(", ") || "none"}.
        </p>
        <RuleForm kind="skus" onDone={skus.reload} />
      </Section>
      <Section title="Tags">
        <p class="muted">
          A tag marks machines whose catalogs pass its rules. Now: {tags.data?.map((tag) => tag.name).join(", ") || "none"}.
        </p>
        <RuleForm kind="tags" onDone={tags.reload} />
      </Section>
      <ErrorNote error={skus.error ?? tags.error} />
    </>
  );
}
