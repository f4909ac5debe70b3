import { parseSshSettings } from "../../../lib/provisioning/nodes/sshSettings";

/** POST /nodes/{id}/ssh's body: RackHD's 400 "Invalid SSH body" for anything but strings where strings go. */
describe("a node's SSH settings", () => {
  it.each<[string, unknown]>([
    ["no object", ["h", "u", "p"]],
    ["no host", { user: "u", password: "p" }],
    ["an empty host", { host: "", user: "u", password: "p" }],
    ["no user", { host: "h", password: "p" }],
    ["neither a password nor a private key", { host: "h", user: "u", publicKey: "pub" }],
    ["an empty password and no key", { host: "h", user: "u", password: "" }],
    ["a private key that is no string", { host: "h", user: "u", password: "p", privateKey: 7 }],
    ["a public key that is no string", { host: "h", user: "u", password: "p", publicKey: { k: 1 } }],
  ])("refuses a body with %s", (_what, body) => {
    expect(() => parseSshSettings(body)).toThrow(expect.objectContaining({ kind: "bad-request", message: "Invalid SSH body" }));
  });

  it("keeps host, user and the secrets that are given, nothing else", () => {
    expect(parseSshSettings({ host: "h", user: "u", password: "p", extra: 1 })).toEqual({ host: "h", user: "u", password: "p" });
    expect(parseSshSettings({ host: "h", user: "u", privateKey: "k", publicKey: "pub", password: "" })).toEqual({
      host: "h",
      user: "u",
      privateKey: "k",
      publicKey: "pub",
    });
  });
});
