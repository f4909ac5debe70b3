import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { openApiDocument } from "../../../lib/http/openapi/document";
import type { Endpoint } from "../../../lib/http/routes/endpoint";
import { CATCH_ALL, ROUTES } from "../../../lib/http/routes/index";
import { SCHEDULED } from "../../../lib/http/routes/scheduled";
import { SOCKET } from "../../../lib/http/routes/socket";
import { TRIGGERED } from "../../../lib/http/routes/triggered";
import { handlerFiles } from "../../../scripts/generate";

const ROOT = join(__dirname, "../../..");

/**
 * An endpoint cannot be half-declared (issue 51): each step of adding one (docs/development.md,
 * "Adding an endpoint") that is forgotten fails here, with a message naming the step. Each check is
 * a function of what it reads, so a test can hand it the project as it would be with a step
 * forgotten, and see the message.
 */

/** A routes.ts module's exported entries: what the registry must reach. */
type RoutesModule = { file: string; entries: Record<string, unknown> };

const isEntry = (value: unknown): value is Endpoint =>
  typeof value === "object" && value !== null && "function" in value && "path" in value && "method" in value;

/** Step: the resource's routes.ts is re-exported by its service's routes.ts. */
function unreachedEntries(modules: readonly RoutesModule[], routes: readonly Endpoint[]): string[] {
  const reached = new Set<unknown>(routes);
  return modules.flatMap(({ file, entries }) =>
    Object.entries(entries)
      .filter(([, entry]) => isEntry(entry) && !reached.has(entry))
      .map(([name]) => `${file} exports ${name}, which the registry does not reach: re-export the file from its service's routes.ts`),
  );
}

/** Step: the entry's export name is its function name (one name in every layer). */
function misnamedEntries(modules: readonly RoutesModule[]): string[] {
  return modules.flatMap(({ file, entries }) =>
    Object.entries(entries)
      .filter(([name, entry]) => isEntry(entry) && entry.function !== name)
      .map(([name, entry]) => `${file} exports ${name} as function ${(entry as Endpoint).function}: name the export after its function`),
  );
}

/** Step: the handler lives in its resource's folder (lib/http/<resource>/routes.ts → handlers/<resource>/): one name in every layer. */
function misplacedHandlers(modules: readonly RoutesModule[]): string[] {
  return modules.flatMap(({ file, entries }) => {
    const folder = `handlers/${file.replace(/^lib\/http\//, "").replace(/\/routes\.ts$/, "")}/`;
    return Object.values(entries)
      .filter(
        (entry): entry is Endpoint =>
          isEntry(entry) && !(entry.handler.startsWith(folder) && !entry.handler.slice(folder.length).includes("/")),
      )
      .map((entry) => `${entry.function} (${file}) has its handler at ${entry.handler}: move it to ${folder}, its resource's folder`);
  });
}

/** Steps: the handler file exists; every handler file is named by exactly one registry entry (or a scheduled or triggered function). */
function handlerProblems(named: readonly { function: string; handler: string }[], files: readonly string[]): string[] {
  const problems: string[] = [];
  for (const { function: name, handler } of named) {
    if (!files.includes(handler)) problems.push(`${name} names handler ${handler}, which is not there: write ${handler}.ts`);
  }
  for (const file of files) {
    const naming = named.filter((entry) => entry.handler === file).map((entry) => entry.function);
    if (naming.length === 0)
      problems.push(`${file}.ts is named by no registry entry: declare its route in its resource's routes.ts, or delete it`);
    if (naming.length > 1) problems.push(`${file}.ts is named by ${naming.join(" and ")}: one handler per entry`);
  }
  return problems;
}

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });

/** Every routes.ts of the HTTP adapter's resource folders and services. */
const routesModules = (): RoutesModule[] =>
  walk(join(ROOT, "lib/http"))
    .filter((path) => path.endsWith("/routes.ts") && !path.endsWith("lib/http/provisioning/routes.ts"))
    .map((path) => ({ file: relative(ROOT, path), entries: require(path) as Record<string, unknown> }));

const everyFunction = () => [...ROUTES, ...SCHEDULED, ...TRIGGERED, ...SOCKET, CATCH_ALL];

describe("the registry cannot be half-declared (issue 51)", () => {
  it("reaches every entry of every routes.ts", () => {
    expect(routesModules().length).toBeGreaterThan(20);
    expect(unreachedEntries(routesModules(), ROUTES)).toEqual([]);
  });

  it("names each entry's export after its function", () => {
    expect(misnamedEntries(routesModules())).toEqual([]);
  });

  it("keeps each handler in its resource's folder", () => {
    expect(misplacedHandlers(routesModules())).toEqual([]);
  });

  it("has each entry's handler file, and no handler file that no entry names", () => {
    expect(handlerProblems(everyFunction(), handlerFiles())).toEqual([]);
  });

  it("answers only with schemas a schemas.ts exports", () => {
    expect(() => openApiDocument("provisioning", ROUTES)).not.toThrow();
  });

  describe("says which step was forgotten", () => {
    const [module] = routesModules().filter((each) => each.file.endsWith("tags/routes.ts"));

    it("a routes.ts not re-exported by its service", () => {
      const without = ROUTES.filter((route) => !Object.values(module.entries).includes(route));
      expect(unreachedEntries([module], without)[0]).toMatch(
        /^lib\/http\/provisioning\/tags\/routes\.ts exports \w+, which the registry does not reach: re-export the file from its service's routes\.ts$/,
      );
    });

    it("an export named otherwise than its function", () => {
      const [name, entry] = Object.entries(module.entries)[0];
      expect(misnamedEntries([{ file: module.file, entries: { [`${name}Typo`]: entry } }])).toEqual([
        `${module.file} exports ${name}Typo as function ${name}: name the export after its function`,
      ]);
    });

    it("a handler outside its resource's folder", () => {
      const [name, entry] = Object.entries(module.entries)[0] as [string, Endpoint];
      const moved = { ...entry, handler: entry.handler.replace("/tags/", "/nodes/") };
      expect(misplacedHandlers([{ file: module.file, entries: { [name]: moved } }])).toEqual([
        `${name} (${module.file}) has its handler at ${moved.handler}: move it to handlers/provisioning/tags/, its resource's folder`,
      ]);
    });

    it("a handler not written, and one no entry names", () => {
      const files = handlerFiles();
      const [first] = ROUTES;
      expect(
        handlerProblems(
          everyFunction(),
          files.filter((file) => file !== first.handler),
        ),
      ).toEqual([`${first.function} names handler ${first.handler}, which is not there: write ${first.handler}.ts`]);
      expect(handlerProblems(everyFunction(), [...files, "handlers/provisioning/tags/orphan"])).toEqual([
        "handlers/provisioning/tags/orphan.ts is named by no registry entry: declare its route in its resource's routes.ts, or delete it",
      ]);
    });

    it("a response schema no schemas.ts exports", () => {
      const broken = {
        ...ROUTES.find((route) => route.service === "provisioning")!,
        responses: { 200: "NoSuchSchema" },
      } as unknown as Endpoint;
      expect(() => openApiDocument("provisioning", [broken])).toThrow(
        /^Registry entry \w+ answers schema NoSuchSchema, which no schemas\.ts of the/,
      );
    });
  });

  it("finds the handler files on disk as the entries name them", () => {
    expect(existsSync(join(ROOT, `${ROUTES[0].handler}.ts`))).toBe(true);
  });
});
