import { readFileSync } from "node:fs";
import { join } from "node:path";
import { benchmarksDocument } from "../../../bench/document";

const ROOT = join(__dirname, "../../..");

/**
 * BENCHMARKS.md is written by `npm run bench` (and `-- --render`) from saved results and notes:
 * an edit made to the file alone would be lost at the next run, so the file must be what they render.
 */
describe("BENCHMARKS.md", () => {
  it("is what bench/results.json, bench/analysis.md and the other benches' saved sections render, every section in its place", () => {
    const saved = JSON.parse(readFileSync(join(ROOT, "bench", "results.json"), "utf8"));
    const document = readFileSync(join(ROOT, "BENCHMARKS.md"), "utf8");
    const rendered = benchmarksDocument(saved, ROOT);
    const headings = (text: string) => text.split("\n").filter((line) => line.startsWith("## "));
    expect(headings(rendered)).toEqual(headings(document));
    expect(rendered).toBe(document);
  });
});
