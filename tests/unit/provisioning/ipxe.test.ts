import fc from "fast-check";
import { apiContextFor } from "../../../lib/provisioning/apiContext";
import { discoveredScript, messageScript, profileScript, redirectScript } from "../../../lib/provisioning/boot/ipxe";

const api = apiContextFor("http://10.0.2.2:3000");
const options = {
  repo: "http://10.0.2.2:8080/centos/7",
  version: "7",
  installScript: "centos-ks",
  hostname: "node-1",
  comport: "ttyS0",
  console: "serial",
  profile: "install-centos.ipxe",
};
const context = { options, api, nodeId: "0123456789abcdef01234567", mac: "52:54:00:12:34:56" };
const PROFILES = ["install-centos.ipxe", "install-trusty.ipxe", "install-coreos.ipxe", "install-esx.ipxe"];

/** Every script the service serves, by name. */
const scripts = (): Record<string, string> => ({
  redirect: redirectScript(api),
  discovered: discoveredScript("0123456789abcdef01234567", ["52:54:00:12:34:56"]),
  message: messageScript("Unable to locate active workflow."),
  ...Object.fromEntries(PROFILES.map((name) => [name, profileScript(name, { ...context, options: { ...options, profile: name } })!])),
});

/**
 * iPXE's documented syntax for the commands these scripts use (ipxe.org/cmd): a command must be
 * one of these, with arguments its pattern accepts. `exit` takes only an optional number.
 */
const SYNTAX: Record<string, RegExp> = {
  set: /^\S+ .+$/,
  echo: /^.*$/,
  isset: /^\$\{\S+\}$/,
  chain: /^(--autofree )?\S+$/,
  kernel: /^\S+( .*)?$/,
  initrd: /^\S+$/,
  boot: /^$/,
  goto: /^\w+$/,
  exit: /^(\d+)?$/,
  sleep: /^\d+$/,
  prompt: /^(--key 0x[0-9a-f]+ )?(--timeout \d+ )?.*$/,
  shell: /^$/,
};

/** The commands of a script line: `a || b`, `a && b || c` run several. */
const commandsOf = (line: string): string[] =>
  line
    .split(/\s*(?:\|\||&&)\s*/)
    .map((part) => part.trim())
    .filter((part) => part !== "");

describe("iPXE scripts", () => {
  it.each(Object.entries(scripts()))("%s uses only commands iPXE accepts, as iPXE documents them", (_name, script) => {
    const lines = script.split("\n").filter((line) => line !== "");
    expect(lines[0]).toBe("#!ipxe");
    const labels = new Set(lines.filter((line) => line.startsWith(":")).map((line) => line.slice(1)));
    for (const line of lines.slice(1).filter((line) => !line.startsWith(":"))) {
      for (const command of commandsOf(line)) {
        const [verb, ...rest] = command.split(" ");
        const args = rest.join(" ");
        expect({ line, verb, known: verb in SYNTAX }).toEqual({ line, verb, known: true });
        expect({ line, args, fits: SYNTAX[verb].test(args) }).toEqual({ line, args, fits: true });
        if (verb === "goto") expect(labels).toContain(args);
      }
    }
  });

  it.each(Object.entries(scripts()))(
    "%s ends every path itself: its last command leaves, and nothing falls into a label",
    (_name, script) => {
      const lines = script.split("\n").filter((line) => line !== "");
      expect(lines[lines.length - 1]).toBe("exit");
      // The line before a label ends the path above it (a chained script's `exit` returns to the next line).
      lines.forEach((line, at) => {
        if (at > 1 && line.startsWith(":"))
          expect({ before: lines[at - 1] }).toEqual({ before: expect.stringMatching(/^(exit|shell|goto \w+|boot \|\| goto \w+)$/) });
      });
    },
  );

  it("the chain of the first script is followed by exit (iPXE returns to the next line when the chained script exits)", () => {
    const lines = redirectScript(api).split("\n");
    const chain = lines.findIndex((line) => line.startsWith("chain "));
    expect(lines[chain + 1]).toBe("exit");
  });

  it("puts the serial console last by default (the installer's console), the screen last when asked", () => {
    for (const name of ["install-centos.ipxe", "install-trusty.ipxe", "install-coreos.ipxe"]) {
      const serial = profileScript(name, { ...context, options: { ...options, profile: name } })!;
      expect(serial).toMatch(/console=tty0 console=ttyS0,115200n8( |$)/m);
      const screen = profileScript(name, { ...context, options: { ...options, profile: name, console: "screen" } })!;
      expect(screen).toMatch(/console=ttyS0,115200n8 console=tty0( |$)/m);
    }
  });

  it("keeps any option text on one line, so no option can add a command", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (repo, hostname) => {
        const script = profileScript("install-centos.ipxe", { ...context, options: { ...options, repo, hostname } })!;
        const lines = script.split("\n").filter((line) => line !== "");
        const plain = profileScript("install-centos.ipxe", context)!
          .split("\n")
          .filter((line) => line !== "");
        expect(lines).toHaveLength(plain.length);
      }),
    );
  });
});
