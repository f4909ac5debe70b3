import fc from "fast-check";
import { parseSshPublicKey } from "../../../lib/provisioning/lifecycle/sshPublicKey";

/** An OpenSSH public key blob: its type as an SSH string, then `rest`. */
const blobOf = (type: string, rest: Buffer = Buffer.alloc(32, 9)): string => {
  const name = Buffer.from(type, "latin1");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(name.length);
  return Buffer.concat([length, name, rest]).toString("base64");
};
const ED25519 = `ssh-ed25519 ${blobOf("ssh-ed25519")}`;

describe("parseSshPublicKey (a rescue's key, issue 53)", () => {
  it("answers a key line as authorized_keys takes it: trimmed, with its comment or without", () => {
    expect(parseSshPublicKey(`  ${ED25519} ops@lab  \n`.trimEnd())).toBe(`${ED25519} ops@lab`);
    expect(parseSshPublicKey(ED25519)).toBe(ED25519);
    expect(parseSshPublicKey(`${ED25519} two words`)).toBe(`${ED25519} two words`);
    const rsa = `ssh-rsa ${blobOf("ssh-rsa", Buffer.alloc(64, 1))}`;
    expect(parseSshPublicKey(rsa)).toBe(rsa);
  });

  it("refuses each wrong line with a 400 that says what is wrong", () => {
    const refuse = (line: string, message: string | RegExp) =>
      expect(() => parseSshPublicKey(line)).toThrow(
        expect.objectContaining({ kind: "bad-request", message: expect.stringMatching(message) }),
      );
    refuse(`${ED25519}\n${ED25519}`, /^options.sshKey must be one public key on one line$/);
    refuse(`${ED25519}\rx`, /one public key on one line/);
    refuse("-----BEGIN OPENSSH PRIVATE KEY-----", /^options.sshKey is a private key: give the public key \(the .pub file\)$/);
    refuse(
      `command="rm -rf /" ${ED25519}`,
      /^options.sshKey must start with its key type \(ssh-ed25519, ssh-rsa, .*\), with no options before it$/,
    );
    refuse("ssh-ed25519", /^options.sshKey has no base64 key after its type$/);
    refuse("ssh-ed25519 not*base64", /no base64 key/);
    refuse(
      `ssh-ed25519 ${blobOf("ssh-rsa")}`,
      /^options.sshKey's key is not a ssh-ed25519 key \(its blob names another type, or is cut short\)$/,
    );
    refuse(`ssh-ed25519 ${Buffer.from([0, 0, 0]).toString("base64")}`, /is not a ssh-ed25519 key/);
    refuse(`ssh-ed25519 ${blobOf("ssh-ed2551")}`, /is not a ssh-ed25519 key/);
    refuse(`${ED25519} caf\u00e9`, /^options.sshKey's comment must be printable ASCII, at most 256 characters$/);
    refuse(`${ED25519} ${"x".repeat(257)}`, /comment must be printable ASCII/);
    expect(parseSshPublicKey(`${ED25519} ${"x".repeat(256)}`)).toHaveLength(ED25519.length + 257);
  });

  it("never answers a line with a quote, a newline or a shell's special character outside its comment, and never throws anything but a 400 (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (line) => {
        try {
          const key = parseSshPublicKey(line);
          const [type, blob] = key.split(" ");
          expect(["ssh-ed25519", "ssh-rsa"].some((known) => type.startsWith(known)) || type.includes("-")).toBe(true);
          expect(blob).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
          expect(key).not.toMatch(/[\n\r]/);
        } catch (error) {
          expect(error).toMatchObject({ kind: "bad-request" });
        }
      }),
    );
    // Any comment of printable ASCII is kept as given.
    fc.assert(
      fc.property(fc.stringMatching(/^[\x20-\x7e]{1,256}$/), (comment) => {
        const kept = comment.trim().replace(/ +/g, " ");
        fc.pre(kept !== "" && comment === kept);
        expect(parseSshPublicKey(`${ED25519} ${comment}`)).toBe(`${ED25519} ${comment}`);
      }),
    );
  });
});
