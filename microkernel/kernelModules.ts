/**
 * Which module files an initramfs needs: the wanted drivers and, from the kernel's modules.dep
 * (`depmod`'s file: `path: dependency-path …` per line), everything they depend on.
 */

/** A module's name as modprobe sees it: the file's base name without `.ko`, `-` read as `_`. */
export const moduleName = (path: string): string => (path.split("/").pop() ?? "").replace(/\.ko(\.[a-z]+)?$/, "").replace(/-/g, "_");

/** modules.dep as a map from a module's name to its file and its dependencies' files. */
export function parseModulesDep(text: string): Map<string, { path: string; depends: string[] }> {
  const modules = new Map<string, { path: string; depends: string[] }>();
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const path = line.slice(0, colon).trim();
    const depends = line
      .slice(colon + 1)
      .split(" ")
      .filter((word) => word !== "");
    modules.set(moduleName(path), { path, depends });
  }
  return modules;
}

/**
 * The files of `wanted` and of every module they depend on, sorted. A wanted name the kernel has
 * no module for is an error naming it (a driver list out of step with the kernel).
 */
export function moduleClosure(modulesDep: string, wanted: readonly string[]): string[] {
  const modules = parseModulesDep(modulesDep);
  const missing = wanted.filter((name) => !modules.has(moduleName(name)));
  if (missing.length > 0) throw new Error(`The kernel has no module named ${missing.join(", ")}`);
  const files = new Set<string>();
  // depmod writes each module's whole chain; following each dependency's own line as well costs
  // nothing and does not rely on it.
  const pending = [...wanted];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const module = modules.get(moduleName(name));
    if (!module || files.has(module.path)) continue;
    files.add(module.path);
    pending.push(...module.depends);
  }
  return [...files].sort();
}
