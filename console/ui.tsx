import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";

/** Loads data, and again when `deps` change or `reload` is called; keeps the last data while it reloads. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: string; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ data }),
      (error: Error) => live && setState((current) => ({ ...current, error: error.message })),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return { ...state, reload: useCallback(() => setRound((n) => n + 1), []) };
}

/** Calls `tick` every `ms` while `active` and the page is visible. */
export function usePolling(tick: () => void, ms: number, active: boolean): void {
  const saved = useRef(tick);
  saved.current = tick;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => document.visibilityState === "visible" && saved.current(), ms);
    return () => clearInterval(timer);
  }, [ms, active]);
}

export const when = (iso?: string): string => (iso ? new Date(iso).toLocaleString() : "");

export function Time({ iso }: { iso?: string }) {
  return iso ? <time dateTime={iso}>{when(iso)}</time> : <span class="muted">—</span>;
}

/** A state's badge, coloured by what it means: working, done, failed, held, off (class names have no spaces). */
export function State({ state }: { state: string }) {
  return <span class={`state state-${state.replace(/\s+/g, "-")}`}>{state}</span>;
}

export function ErrorNote({ error }: { error?: string }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

export function Section({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card">
      <header class="card-head">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

export const link = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join("/")}`;

/** Field names that hold a secret: OBM passwords and SNMP communities, tokens, a graph's rootPassword. */
const SECRET = /password|secret|token|community/i;

/** A text field, masked when its name says it holds a secret (passwords are typed, never shown). */
export function Field(props: { name: string; defaultValue?: string; placeholder?: string; required?: boolean }) {
  return SECRET.test(props.name) ? (
    <input type="password" autoComplete="off" {...props} />
  ) : (
    <input type="text" autoComplete="off" {...props} />
  );
}
