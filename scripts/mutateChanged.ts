/**
 * Mutation testing of the domain files a change touched (`npm run test:mutation:changed [-- <base>]`,
 * base HEAD~1 by default): what CI runs on every commit, since a full run of the domain
 * (`npm run test:mutation`) takes most of an hour on two cores. Fails below stryker.config.mjs's
 * break threshold, as the full run does.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { type MutationReport, scoreTable, staticJudgedLines } from "./mutationReport";

const DOMAIN = /^lib\/(provisioning|tasks)\/.+(?<!\.generated)\.ts$/;

const base = process.argv[2] ?? "HEAD~1";
let changed: string[];
try {
  changed = execFileSync("git", ["diff", "--name-only", base, "HEAD"], { encoding: "utf8" }).split("\n");
} catch {
  console.log(`mutation: no commit ${base} to compare with (a shallow clone?): nothing to mutate`);
  process.exit(0);
}
const files = changed.filter((file) => DOMAIN.test(file) && existsSync(file));
if (files.length === 0) {
  console.log(`mutation: no domain file changed since ${base}: nothing to mutate`);
  process.exit(0);
}
console.log(`mutation: ${files.length} domain file(s) changed since ${base}: ${files.join(", ")}`);
const run = spawnSync("npx", ["stryker", "run", "--mutate", files.join(",")], { stdio: "inherit" });
// StrykerJS's table leaves the ignored mutants out: print each file's score beside them.
const REPORT = "reports/mutation/mutation.json";
if (existsSync(REPORT)) {
  const report = JSON.parse(readFileSync(REPORT, "utf8")) as MutationReport;
  console.log(`mutation scores with the ignored shown:\n${scoreTable(report)}`);
  for (const line of staticJudgedLines(report)) console.log(line);
}
process.exit(run.status ?? 1);
