import { ROUTES } from "../../../lib/http/routes/index";
import { GRUB_MACHINE_FILE, isBootRoute, isSharedFilePath, RELAY_ROUTES, TFTP_FILES } from "../../../lib/wire/relay";

/** A route's path with each parameter given a value, as a request names it. */
const instance = (path: string): string =>
  path
    .replace(/\{version\}/g, "current")
    .replace(/\{[^}]+\+\}/g, "a/b")
    .replace(/\{[^}]+\}/g, "x1");

/** The wire between the service and its relays (issue 51): one module, generated from the registry where it can be. */
describe("the relay's wire", () => {
  it("forwards every boot route of the registry with its method, HEAD as GET, and no other route", () => {
    const wrong = ROUTES.filter((route) => isBootRoute(route.method, instance(route.path)) !== (route.auth === "boot"));
    // A literal path that a boot route's template also matches (GET /templates/library, as
    // /templates/{name}) goes through: the service routes it to its own entry, which refuses a relay's token.
    expect(wrong.map((route) => route.function)).toEqual(["templateLibrary"]);
    for (const route of ROUTES.filter((each) => each.auth === "boot" && each.method === "GET"))
      expect(isBootRoute("HEAD", instance(route.path))).toBe(true);
    expect(isBootRoute("DELETE", "/common/x")).toBe(false);
    expect(isBootRoute("GET", "/api/current/nodes")).toBe(false);
    expect(isBootRoute("GET", "/common/a/b")).toBe(false);
  });

  it("names the shared files TFTP serves by path: /common and the file byte routes only", () => {
    for (const path of ["/common/vmlinuz", "/api/current/files/initrd.img", "/api/1.1/files/x/latest", "/api/current/files/md5/x/latest"])
      expect([path, isSharedFilePath(path)]).toEqual([path, true]);
    for (const path of ["/api/current/profiles", "/api/current/templates/x", "/api/current/nocloud/c/user-data", "/common/a/b"])
      expect([path, isSharedFilePath(path)]).toEqual([path, false]);
  });

  it("names GRUB's machine file as the relay serves it and the service tells it", () => {
    const file = TFTP_FILES.grubMachine("52:54:00:5b:00:01");
    expect(file).toBe("grub/machine/52:54:00:5b:00:01");
    expect(GRUB_MACHINE_FILE.exec(file)?.[1]).toBe("52:54:00:5b:00:01");
    expect(RELAY_ROUTES.grubScript("52:54:00:5B:00:01")).toBe("/api/current/profiles?macs=52:54:00:5b:00:01&loader=grub");
    expect(RELAY_ROUTES.loader(undefined)).toBe("/api/current/profiles/loader");
    expect(RELAY_ROUTES.result("a/b")).toBe("/api/1.1/relay/jobs/a%2Fb/result");
  });
});
