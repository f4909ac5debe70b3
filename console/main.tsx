import "./styles.css";
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { loadSession, PROVIDER_SIGN_IN, signedIn, signedInAs, signIn, signOut, whenAuthNeeded } from "./api";
import { Audit } from "./pages/Audit";
import { Define } from "./pages/Define";
import { Hooks } from "./pages/Hooks";
import { Machine } from "./pages/Machine";
import { Machines } from "./pages/Machines";
import { Sites } from "./pages/Sites";
import { StartWorkflow } from "./pages/StartWorkflow";
import { Tasks } from "./pages/Tasks";
import { WorkflowView } from "./pages/WorkflowView";

/** The hash route, split into decoded segments: `#/machines/<id>` → ["machines", "<id>"]. */
const route = (): string[] => location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);

function Page({ path }: { path: string[] }) {
  const [area, id, action] = path;
  if (area === "machines" && id && action === "start") return <StartWorkflow nodeId={id} />;
  if (area === "machines" && id) return <Machine nodeId={id} />;
  if (area === "workflows" && id) return <WorkflowView instanceId={id} />;
  if (area === "define") return <Define />;
  if (area === "tasks") return <Tasks />;
  if (area === "sites") return <Sites />;
  if (area === "hooks") return <Hooks />;
  if (area === "audit") return <Audit />;
  return <Machines />;
}

function SignIn({ refused, provider, onDone }: { refused: boolean; provider: boolean; onDone: () => void }) {
  // A dialog takes the focus when it opens, so that the keyboard is where the form is.
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    signIn(String(form.get("user")), String(form.get("password")));
    onDone();
  };
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="signin-title">
      <form class="card signin" onSubmit={submit}>
        <h2 id="signin-title">Sign in</h2>
        <p class={refused ? "error" : "muted"} role={refused ? "alert" : undefined}>
          {refused
            ? "Those credentials were refused (401/403): the service did not let this account in. Try another."
            : "This service asks for a user name and password. They are kept for this browser session only."}
        </p>
        {provider && (
          <p>
            <a class="button" href={PROVIDER_SIGN_IN}>
              Sign in with your company account
            </a>
          </p>
        )}
        <label>
          User <input name="user" autoComplete="username" required ref={first} />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
    </div>
  );
}

function App() {
  const [path, setPath] = useState(route());
  const [auth, setAuth] = useState<"needed" | "refused" | undefined>();
  const [round, setRound] = useState(0);
  const [provider, setProvider] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // Who the provider's session is, before the pages ask the API (it says how they ask).
    loadSession().then((known) => {
      setProvider(known.provider);
      setReady(true);
    });
    const follow = () => setPath(route());
    addEventListener("hashchange", follow);
    whenAuthNeeded((why) => setAuth(why));
    return () => removeEventListener("hashchange", follow);
  }, []);
  const [area = "machines"] = path;
  const nav = (to: string, label: string, current: boolean) => (
    <a href={`#/${to}`} aria-current={current ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <>
      <header class="top">
        <h1 class="brand">
          <a href="#/machines">Provisioning console</a>
        </h1>
        <nav aria-label="Sections">
          {nav("machines", "Machines", area === "machines" || area === "workflows")}
          {nav("define", "SKUs & tags", area === "define")}
          {nav("sites", "Sites", area === "sites")}
          {nav("hooks", "Hooks", area === "hooks")}
          {nav("audit", "Audit", area === "audit")}
          {nav("tasks", "Tasks", area === "tasks")}
        </nav>
        {signedInAs() !== null && <span class="muted">{signedInAs()}</span>}
        {signedIn() && (
          <button
            type="button"
            class="link"
            onClick={async () => {
              await signOut();
              setRound((n) => n + 1);
            }}
          >
            Sign out
          </button>
        )}
      </header>
      <main key={`${path.join("/")}#${round}`}>{ready && <Page path={path} />}</main>
      {auth && (
        <SignIn
          refused={auth === "refused"}
          provider={provider}
          onDone={() => {
            setAuth(undefined);
            setRound((n) => n + 1);
          }}
        />
      )}
    </>
  );
}

render(<App />, document.getElementById("console")!);
