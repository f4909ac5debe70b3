/**
 * The domain's mutation report, whole, from runs of its parts (issue 36): `npm run
 * test:mutation:merge -- <report.json>… [--out <file>]`. A whole run takes about two and a half
 * hours on two cores, more than a stretch of free CPU here, so the domain is run in parts
 * (`npm run test:mutation -- --mutate "lib/provisioning/boot/**"`, each part's JSON report kept)
 * and the parts are merged: the files of every part (a later part's copy of a file wins), and the
 * test files with their tests, whose ids are each run's own numbers and are given merged ids (one
 * per test file and name). The merged report is a StrykerJS report like a whole run's: its score is
 * printed, and `npx stryker run --incremental --incrementalFile <merged>` takes it as its previous
 * run, testing again only the mutants whose code or tests changed since.
 */
import { readFileSync, writeFileSync } from "node:fs";

interface TestDefinition {
  id: string;
  name: string;
  [key: string]: unknown;
}

interface MutantResult {
  id: string;
  status: string;
  coveredBy?: string[];
  killedBy?: string[];
  [key: string]: unknown;
}

export interface MutationReport {
  schemaVersion: string;
  thresholds: { high: number; low: number; break?: number | null };
  files: Record<string, { source: string; mutants: MutantResult[]; [key: string]: unknown }>;
  testFiles?: Record<string, { source?: string; tests: TestDefinition[]; [key: string]: unknown }>;
  [key: string]: unknown;
}

/** Merges reports of parts of one project: every file (the later report's copy of a file wins), tests renumbered. */
export function mergeReports(reports: readonly MutationReport[]): MutationReport {
  if (reports.length === 0) throw new Error("no report to merge");
  const files: MutationReport["files"] = {};
  const testFiles: NonNullable<MutationReport["testFiles"]> = {};
  const mergedIds = new Map<string, string>();
  const mergedId = (path: string, name: string): string => {
    const key = `${path}\u0000${name}`;
    let id = mergedIds.get(key);
    if (id === undefined) {
      id = String(mergedIds.size);
      mergedIds.set(key, id);
    }
    return id;
  };
  for (const report of reports) {
    const local = new Map<string, string>();
    for (const [path, testFile] of Object.entries(report.testFiles ?? {})) {
      const tests = testFile.tests.map((test) => {
        const id = mergedId(path, test.name);
        local.set(test.id, id);
        return { ...test, id };
      });
      const kept = new Map((testFiles[path]?.tests ?? []).map((test) => [test.id, test]));
      for (const test of tests) kept.set(test.id, test);
      testFiles[path] = { ...testFile, tests: [...kept.values()] };
    }
    const remap = (ids: string[] | undefined) => ids?.flatMap((id) => (local.has(id) ? [local.get(id)!] : []));
    for (const [path, file] of Object.entries(report.files)) {
      files[path] = {
        ...file,
        mutants: file.mutants.map((mutant) => ({
          ...mutant,
          ...(mutant.coveredBy && { coveredBy: remap(mutant.coveredBy) }),
          ...(mutant.killedBy && { killedBy: remap(mutant.killedBy) }),
        })),
      };
    }
  }
  return { ...reports.at(-1)!, files, testFiles };
}

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/** StrykerJS's mutation score: detected over detected and undetected (ignored and erroneous mutants left out), in %. */
export function mutationScore(report: Pick<MutationReport, "files">): { score: number; counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  for (const file of Object.values(report.files))
    for (const mutant of file.mutants) counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
  const sum = (statuses: Set<string>) => Object.entries(counts).reduce((n, [status, count]) => n + (statuses.has(status) ? count : 0), 0);
  const detected = sum(DETECTED);
  const valid = detected + sum(UNDETECTED);
  return { score: valid === 0 ? Number.NaN : (100 * detected) / valid, counts };
}

/**
 * Each file's score beside its ignored mutants (issue 51: a score that leaves mutants out says so):
 * the score StrykerJS gives, the score with the ignored counted as undetected (a static mutant the
 * run did not judge, or one a `// Stryker disable` comment calls equivalent, with its reason
 * there), and how many were ignored. The last row is the whole report's. `by: "folder"` gives a row
 * per folder instead (the whole domain's 146 files are too many rows for BENCHMARKS.md).
 */
export function scoreTable(report: Pick<MutationReport, "files">, { by = "file" }: { by?: "file" | "folder" } = {}): string {
  const row = (name: string, files: Pick<MutationReport, "files">) => {
    const { score, counts } = mutationScore(files);
    const ignored = counts.Ignored ?? 0;
    const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
    const judged = detected + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
    const counted = judged + ignored === 0 ? Number.NaN : (100 * detected) / (judged + ignored);
    return `| ${name} | ${score.toFixed(2)} % | ${counted.toFixed(2)} % | ${ignored} | ${judged + ignored} |`;
  };
  const groups = new Map<string, MutationReport["files"]>();
  for (const path of Object.keys(report.files).sort()) {
    const group = by === "file" ? path : path.slice(0, path.lastIndexOf("/") + 1);
    groups.set(group, { ...groups.get(group), [path]: report.files[path] });
  }
  return [
    `| ${by} | score | ignored counted as undetected | ignored | mutants (judged and ignored) |`,
    "|---|---:|---:|---:|---:|",
    ...[...groups].map(([group, files]) => row(group, { files })),
    row("all", report),
  ].join("\n");
}

/**
 * Static mutants (run as a module loads) that were judged anyway: a test ran them first inside its
 * own body (a module loaded by `jest.isolateModules` or a `require` in the test, or a table built on
 * first use), so per-test coverage names that test, and StrykerJS runs that test alone instead of
 * leaving the mutant out as static. A table built on first use is judged fairly so; a module loaded
 * in a test whose assertions are elsewhere is not (on 2026-11-29 a test that required the
 * composition root made 822 of one part's mutants survive). Answers how many, and the tests that
 * judged the most of them, so a run that meets this says so.
 */
export function staticJudged(report: MutationReport): { count: number; tests: { name: string; mutants: number }[] } {
  const names = new Map<string, string>();
  for (const [path, testFile] of Object.entries(report.testFiles ?? {}))
    for (const test of testFile.tests) names.set(test.id, `${path}: ${test.name}`);
  const byTest = new Map<string, number>();
  let count = 0;
  for (const file of Object.values(report.files))
    for (const mutant of file.mutants) {
      if (mutant.static !== true || mutant.status === "Ignored") continue;
      count += 1;
      for (const id of mutant.coveredBy ?? []) byTest.set(id, (byTest.get(id) ?? 0) + 1);
    }
  const tests = [...byTest]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 3)
    .map(([id, mutants]) => ({ name: names.get(id) ?? id, mutants }));
  return { count, tests };
}

/** staticJudged's finding as lines for a run's output: none when every static mutant was left out. */
export function staticJudgedLines(report: MutationReport): string[] {
  const { count, tests } = staticJudged(report);
  if (count === 0) return [];
  return [
    `${count} static mutant(s) judged by the tests that first ran them (a module loaded, or a table built on first use, inside a test), not left out as static:`,
    ...tests.map((test) => `  ${test.mutants} by ${test.name}`),
  ];
}

if (require.main === module) {
  const byFolder = process.argv.includes("--by-folder");
  const args = process.argv.slice(2).filter((arg) => arg !== "--by-folder");
  const at = args.indexOf("--out");
  const out = at >= 0 ? args[at + 1] : "reports/mutation/whole.json";
  const inputs = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  const merged = mergeReports(inputs.map((file) => JSON.parse(readFileSync(file, "utf8")) as MutationReport));
  writeFileSync(out, JSON.stringify(merged));
  const { score, counts } = mutationScore(merged);
  console.log(`${Object.keys(merged.files).length} files, ${JSON.stringify(counts)}: mutation score ${score.toFixed(2)} % (${out})`);
  console.log(scoreTable(merged, { by: byFolder ? "folder" : "file" }));
  for (const line of staticJudgedLines(merged)) console.log(line);
}
