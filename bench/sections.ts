import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
/**
 * BENCHMARKS.md's sections written by their own benches (`bench:relay`, `bench:events`,
 * `bench:fleet`), each from its saved results: a section is replaced where it stands, or added
 * at the end, so that `npm run bench` and each bench alone leave the same file.
 */
export function withSection(report: string, heading: string, section: string[]): string {
  if (section.length === 0) return report;
  const start = report.indexOf(`\n${heading}`);
  if (start < 0) return `${report.trimEnd()}\n\n${section.join("\n")}`;
  const rest = report.indexOf("\n## ", start + 3);
  const joined = `${report.slice(0, start + 1)}${section.join("\n")}${rest < 0 ? "" : `\n${report.slice(rest + 1)}`}`;
  return `${joined.trimEnd()}\n`;
}

/** A bench's saved results (bench/<file>), or undefined before its first run: its section is then left out. */
export function savedResults<T>(root: string, file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(join(root, "bench", file), "utf8")) as T;
  } catch {
    return undefined;
  }
}

/**
 * What a section's bench does with its results: saves them (`root`/`file`), writes its section into
 * BENCHMARKS.md where it stands, and prints it.
 */
export function saveSection(root: string, file: string, results: unknown, heading: string, section: (root: string) => string[]): void {
  writeFileSync(join(root, file), `${JSON.stringify(results, null, 2)}\n`);
  const benchmarks = join(root, "BENCHMARKS.md");
  writeFileSync(benchmarks, withSection(readFileSync(benchmarks, "utf8"), heading, section(root)));
  process.stdout.write(`${section(root).join("\n")}\n`);
}
