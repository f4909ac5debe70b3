import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * BENCHMARKS.md's "Linear-time rules" section (issue 35 §6): figures measured by hand (`node -e`
 * timings and esbuild bundle sizes, no bench of their own), kept as written (under its heading) in
 * bench/linear-rules.md so that `npm run bench` and `--render` keep it where it stands.
 */
export const LINEAR_RULES_HEADING = "## Linear-time rules (issue 35 §6)";

export function linearRulesSection(root: string): string[] {
  return [
    LINEAR_RULES_HEADING,
    "",
    ...readFileSync(join(root, "bench", "linear-rules.md"), "utf8")
      .trimEnd()
      .split("\n"),
  ];
}
