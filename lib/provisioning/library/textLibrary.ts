import { NotFoundError } from "../../errors";
import { type ApiContext, apiContextFor } from "../apiContext";
import { renderInstallTemplate, TEMPLATE_NAMES, type TemplateContext } from "../boot/installTemplates";
import { PROFILE_NAMES, profileScript } from "../boot/ipxe";
import type { StoresOf } from "../ports";
import { assertRecordFits, fitsKey } from "../recordSize";
import { updateOrCreate } from "../recordStore";
import { placeholders } from "../textTemplate";
import type { LibraryKind, LibraryRecord } from "./libraryRecord";

/**
 * The template and profile library (RackHD §9): the built-in install templates and boot profiles,
 * and the ones operators put, by name. A put one replaces the built-in of its name for the boot
 * flow from then on, in every container (it is stored). A built-in's contents are its text with
 * its values as tags (`<%=repo%>`, `<%=api.templates%>`): what it renders for every node; the
 * lines it writes per user or per network device are not shown.
 */

/** When a built-in entry is said to be created: it is part of the service. */
const BUILT_IN_TIME = new Date(0).toISOString();

/** Every field of the API context as its tag (`{{file.server}}`'s value as `<%=file.server%>`). */
const apiTags = Object.fromEntries(
  Object.keys(apiContextFor("http://x")).map((key) => [key, key === "fileServer" ? "<%=file.server%>" : `<%=api.${key}%>`]),
) as unknown as ApiContext;

const placeholderContext: TemplateContext = {
  options: placeholders(),
  api: apiTags,
  nodeId: "<%=nodeId%>",
  mac: "<%=mac%>",
  token: "<%=token%>",
  instance: {
    credential: "<%=instance.credential%>",
    instanceId: "<%=instance.instanceId%>",
    seedUrl: "<%=instance.seedUrl%>",
    reportUrl: "<%=instance.reportUrl%>",
  },
};

const BUILT_IN: Record<LibraryKind, { names: readonly string[]; contents: (name: string) => string }> = {
  templates: { names: TEMPLATE_NAMES, contents: (name) => renderInstallTemplate(name, placeholderContext) },
  profiles: { names: PROFILE_NAMES, contents: (name) => profileScript(name, placeholderContext) ?? "" },
};

const builtIn = (kind: LibraryKind, name: string): LibraryRecord | undefined =>
  BUILT_IN[kind].names.includes(name)
    ? { id: name, name, contents: BUILT_IN[kind].contents(name), scope: "global", createdAt: BUILT_IN_TIME, updatedAt: BUILT_IN_TIME }
    : undefined;

const storeOf = (stores: StoresOf<"profiles" | "templates">, kind: LibraryKind) =>
  kind === "templates" ? stores.templates : stores.profiles;

/** GET /templates/library, /profiles/library: the built-ins (less those put over), then the put ones. */
export async function libraryEntries(stores: StoresOf<"profiles" | "templates">, kind: LibraryKind): Promise<LibraryRecord[]> {
  const stored = await storeOf(stores, kind).list();
  const names = new Set(stored.map((record) => record.name));
  const builtIns = BUILT_IN[kind].names.filter((name) => !names.has(name)).map((name) => builtIn(kind, name)!);
  return [...builtIns, ...stored.sort((a, b) => (a.name < b.name ? -1 : 1))];
}

/** One entry: the put one, else the built-in; undefined when neither (RackHD's 404 `{"error":"Not Found"}`). */
export async function libraryEntry(
  stores: StoresOf<"profiles" | "templates">,
  kind: LibraryKind,
  name: string,
): Promise<LibraryRecord | undefined> {
  if (!fitsKey(name)) return undefined;
  return (await storeOf(stores, kind).get(name)) ?? builtIn(kind, name);
}

/** PUT: the raw text, stored by name (created or replaced); answers the record. */
export async function putLibraryEntry(
  stores: StoresOf<"profiles" | "templates">,
  kind: LibraryKind,
  name: string,
  contents: string,
  now: Date,
): Promise<LibraryRecord> {
  if (!fitsKey(name)) throw new NotFoundError(`Could not find ${kind} ${name.slice(0, 64)}…`);
  const stamp = now.toISOString();
  const store = storeOf(stores, kind);
  const replace = (current: LibraryRecord): LibraryRecord => {
    const next = { ...current, contents, updatedAt: stamp };
    assertRecordFits(next, kind === "templates" ? "template" : "profile");
    return next;
  };
  // Another request that put it first is replaced by this one.
  return updateOrCreate(store, name, replace, () => ({ id: name, name, contents, scope: "global", createdAt: stamp, updatedAt: stamp }));
}

/**
 * DELETE (RackHD's `templatesLibDelete`, which FIT's template test ends with): removes the put
 * entry and answers it; a built-in of that name is served again. Undefined when nothing was put
 * under that name (a built-in alone cannot be removed): RackHD's 404 `{"error":"Not Found"}`.
 */
export async function deleteLibraryEntry(
  stores: StoresOf<"profiles" | "templates">,
  kind: LibraryKind,
  name: string,
): Promise<LibraryRecord | undefined> {
  return fitsKey(name) ? storeOf(stores, kind).delete(name) : undefined;
}
