import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DOC_PAGES } from "../../../scripts/generate";
import { type OfflineServer, startOffline } from "../../support/offlineServer";

jest.setTimeout(240_000);
const ROOT = join(__dirname, "../../..");
const MARK = "<!-- example: runs as written against `npm start`";

/** The README's shell blocks marked as runnable, in order: a newcomer pastes them one after the other. */
function readmeExamples(readme: string): string[] {
  const blocks: string[] = [];
  const lines = readme.split("\n");
  for (let at = 0; at < lines.length; at += 1) {
    if (!lines[at].startsWith(MARK)) continue;
    const end = lines.indexOf("```", at + 2);
    blocks.push(lines.slice(at + 2, end).join("\n"));
  }
  return blocks;
}

/**
 * Issue 22 §15: the README's examples, run as written (in one shell, as a newcomer pastes them)
 * against `npm start`'s settings, on a free port in place of 3000. Every curl reaches the service
 * (no status 000), and none is answered 400 or a 5xx: an example that fails when pasted fails here.
 */
/** The README and the docs' pages, one after the other (the marked blocks run in this order). */
const pages = (): string => DOC_PAGES.map((page) => readFileSync(join(ROOT, page), "utf8")).join("\n");

describe("the examples of the README and docs/", () => {
  let server: OfflineServer;
  beforeAll(async () => {
    server = await startOffline({ DEMO_NODES: "on" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("are found (the marked blocks)", () => {
    expect(readmeExamples(pages()).length).toBeGreaterThanOrEqual(6);
  });

  it("run against the local service: every curl answered, none 400 or 5xx", async () => {
    const blocks = readmeExamples(pages());
    const script = [
      "set -e",
      // Each curl also writes its status to stderr, where the test reads it.
      "curl() { command curl --write-out '%{stderr}HTTP %{http_code} %{url_effective}\\n' \"$@\"; }",
      ...blocks.map((block) => block.replaceAll("localhost:3000", `localhost:${server.port}`)),
    ].join("\n");
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const shell = spawn("bash", ["-c", script], { cwd: ROOT, env: { ...process.env, PORT: String(server.port) } });
      let out = "";
      let err = "";
      shell.stdout.on("data", (chunk) => (out += chunk));
      shell.stderr.on("data", (chunk) => (err += chunk));
      shell.on("close", (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    });
    const statuses = [...stderr.matchAll(/^HTTP (\d{3}) (\S+)$/gm)].map((match) => `${match[1]} ${match[2]}`);
    const bad = statuses.filter((line) => /^(000|400|5\d\d) /.test(line));
    expect({ code, bad, stderrTail: code === 0 ? "" : stderr.slice(-2000) }).toEqual({ code: 0, bad: [], stderrTail: "" });
    expect(statuses.length).toBeGreaterThan(20);
    expect(stdout).toContain("the same bytes");
    expect(stdout).toContain("result: installed");
    expect(stdout).toContain("result: discovered");
  });
});
