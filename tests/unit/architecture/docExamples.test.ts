import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DOC_PAGES } from "../../../scripts/generate";

const ROOT = join(__dirname, "../../..");

/**
 * Every shell example of the README and docs/ says what it is (issue 50: examples failed as
 * written): one the tests run as written against `npm start` (tests/e2e/memory-only/
 * readmeExamples.test.ts), one that starts the service, or one that needs a real site (hardware,
 * root, AWS), saying what. An unmarked block fails here, by page and line.
 */
const KINDS = ["<!-- example: runs as written against `npm start`", "<!-- example: starts the service", "<!-- example: needs "];

describe("the docs' shell examples", () => {
  it("each say whether a test runs them, they start the service, or they need a real site", () => {
    const unmarked: string[] = [];
    for (const page of DOC_PAGES) {
      const lines = readFileSync(join(ROOT, page), "utf8").split("\n");
      lines.forEach((line, at) => {
        if (/^```(sh|bash|shell|console)\s*$/.test(line) && !KINDS.some((kind) => (lines[at - 1] ?? "").startsWith(kind))) {
          unmarked.push(`${page}:${at + 1}`);
        }
      });
    }
    expect(unmarked).toEqual([]);
  });
});
