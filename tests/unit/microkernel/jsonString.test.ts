import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";

/**
 * The microkernel's JSON strings (microkernel/init.sh's `jstr`), run by busybox's sh as the
 * microkernel runs them: a value that needs no escaping is written without json_string's pipe, and
 * must come out exactly as the pipe would write it; every value must read back as itself.
 */
const INIT = readFileSync(join(__dirname, "../../../microkernel/init.sh"), "utf8");
const definition = (name: string): string => {
  const found = new RegExp(`^${name}\\(\\) \\{\\n[\\s\\S]*?\\n\\}\\n`, "m").exec(INIT);
  if (!found) throw new Error(`microkernel/init.sh defines no ${name}()`);
  return found[0];
};
const FUNCTIONS = `${definition("json_string")}${definition("jstr")}`;

/** Each value's JSON text, as `jstr` writes it and as the pipe alone writes it: one line each. */
function written(values: string[]): { jstr: string[]; pipe: string[] } {
  const script = `${FUNCTIONS}
for value in "$@"; do jstr "$value"; printf '\\n'; printf '%s' "$value" | json_string; printf '\\n'; done`;
  const lines = execFileSync("busybox", ["sh", "-c", script, "sh", ...values], { encoding: "utf8" }).split("\n");
  return { jstr: lines.filter((_, i) => i % 2 === 0).slice(0, values.length), pipe: lines.filter((_, i) => i % 2 === 1) };
}

describe("the microkernel's JSON strings (jstr)", () => {
  it("writes a plain value as it is, and escapes quotes, backslashes, tabs and new lines", () => {
    const values = ["QEMU HARDDISK", "52:54:00:12:34:56", "", 'say "hi"', "C:\\disk", "a\tb", "one\ntwo", "$(reboot)"];
    expect(written(values).jstr).toEqual([
      '"QEMU HARDDISK"',
      '"52:54:00:12:34:56"',
      '""',
      '"say \\"hi\\""',
      '"C:\\\\disk"',
      '"a\\tb"',
      '"one\\ntwo"',
      '"$(reboot)"',
    ]);
  });

  it("writes what the pipe writes, for any value a device may name (the quick path changes no output)", () => {
    // Any text but NUL (no shell argument holds one): quotes, backslashes, control characters, UTF-8.
    const value = fc.string({
      unit: fc.oneof(
        fc.constantFrom('"', "\\", "\t", "\n", "\r", "\u0007", "%", "$"),
        fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(
        fc.array(
          value.filter((text) => !text.includes("\u0000")),
          { minLength: 1, maxLength: 40 },
        ),
        (values) => {
          const { jstr, pipe } = written(values);
          expect(jstr).toEqual(pipe);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("reads back as the value itself, for any printable ASCII", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) }), {
          minLength: 1,
          maxLength: 40,
        }),
        (values) => {
          expect(written(values).jstr.map((line) => JSON.parse(line))).toEqual(values);
        },
      ),
      { numRuns: 25 },
    );
  });
});
