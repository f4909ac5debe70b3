import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { unpacker } from "../../../lib/provisioning/boot/cloudInitTemplates";
import { renderInstallTemplate } from "../../../lib/provisioning/boot/installTemplates";
import { builtInTask, resolveTask } from "../../../lib/provisioning/graphs/taskDefinitions";
import { lineToken, oneLine, shellWord } from "../../../lib/provisioning/scriptValues";
import { checkInstallOptions } from "../../../lib/provisioning/workflowEngine/installOptions";
import { api, instance } from "./renderContext";

/**
 * Issue 35 §5: no option value breaks out of what it is rendered into. Proven with a real `sh`
 * (dash here, busybox sh on the machine: both POSIX) for the shell, and by construction for the
 * line languages (iPXE, kernel lines, kickstart): a token holds nothing they expand or split on.
 */
/** Strings rich in what shells and iPXE treat specially, and any other text. */
const hostile = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."$(){}`'\"\\;&|<> \t\n*?#~!%=abc/:.-"), maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ maxLength: 30 }),
);
const sh = (script: string): string => {
  const run = spawnSync("sh", ["-c", script], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`sh failed: ${run.stderr}`);
  return run.stdout;
};

describe("shellWord: one POSIX sh word that is exactly the text", () => {
  it("comes back from a real sh as it went in, whatever it holds", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const clean = text.replace(/\0/g, "");
        expect(sh(`printf '%s' ${shellWord(clean)}`)).toBe(clean);
      }),
      { numRuns: 60 },
    );
  });
});

describe("lineToken: one inert token of iPXE, a kernel line, kickstart or preseed", () => {
  it("holds no blank, expansion, quote, pipe or control, and keeps a URL's own characters", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const token = lineToken(text);
        expect(token).toMatch(/^[A-Za-z0-9\-._~:/?#[\]@!&=+,;%]*$/);
      }),
    );
    expect(lineToken("http://mirror.example/centos/7.0/os/x86_64?a=1&b=2")).toBe("http://mirror.example/centos/7.0/os/x86_64?a=1&b=2");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: iPXE's ${net0/mac}, sent by a hostile value
    expect(lineToken("http://x/$(reboot) ${net0/mac}")).toBe("http://x/%24%28reboot%29%20%24%7Bnet0/mac%7D");
    expect(lineToken("<%=repo%>/x y")).toBe("<%=repo%>/x%20y");
  });
});

describe("the image installer (install-image.sh) with hostile options", () => {
  const task = resolveTask(builtInTask("Task.Os.Install.Image"))!;
  const render = (image: unknown, installDisk?: unknown) =>
    renderInstallTemplate("install-image.sh", { options: { image, installDisk }, api, nodeId: "n1", mac: "52:54:00:00:00:01", instance });
  const ASSIGNED = 3;
  const body = (script: string) =>
    script
      .split("\n")
      .slice(2 + ASSIGNED)
      .join("\n");

  it("renders every option as a quoted assignment at the top, and the rest the same text whatever they say", () => {
    // The body depends on the image only through its unpacker (a `?` or `#` in the suffix moves
    // the `.gz` out of the URL's path: the image is then written as it comes).
    const baseline = (image: string) => body(render(`http://files.example/a.img${unpacker(image) === "cat" ? "" : ".gz"}`));
    fc.assert(
      fc.property(hostile, hostile, (suffix, disk) => {
        const image = `http://files.example/${suffix}.gz`;
        const script = render(image, disk);
        expect(body(script)).toBe(baseline(image));
        const lines = script
          .split("\n")
          .slice(2, 2 + ASSIGNED)
          .join("\n");
        const values = sh(`${lines}\nprintf '%s\\n%s\\n%s' "$image" "$image_url" "$disk"`).split("\n");
        expect(values[0]).toBe(oneLine(image));
        expect(values[1]).toMatch(/^[A-Za-z0-9\-._~:/?#[\]@!&=+,;%]*$/);
        expect(values[2]).toBe(disk === "" ? "" : oneLine(disk));
      }),
      { numRuns: 40 },
    );
  });

  it("refuses, when the workflow starts, options that are not what they say (400 naming the option)", () => {
    const refuse = (options: Record<string, unknown>, name: string) =>
      expect(() => checkInstallOptions(task, { image: "debian-12.raw.gz", ...options })).toThrow(
        expect.objectContaining({ kind: "bad-request", message: expect.stringContaining(name) }),
      );
    refuse({ image: "$(reboot)" }, "image");
    refuse({ image: "ftp://x/y" }, "image");
    refuse({ installDisk: "/dev/sda; reboot" }, "installDisk");
    refuse({ hostname: "a b" }, "hostname");
    refuse({ hostname: "x$(id)" }, "hostname");
    refuse({ version: "7 init=/bin/sh" }, "version");
    refuse({ comport: "ttyS0 || shell" }, "comport");
    refuse({ repo: "not a url" }, "repo");
    refuse({ kernelUri: "file:///etc/passwd" }, "kernelUri");
    expect(() =>
      checkInstallOptions(task, { image: "http://x/a.img", hostname: "web-1.example", version: 7, comport: "ttyS1" }),
    ).not.toThrow();
  });
});
