import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RedfishMachine, startRedfishBmc } from "../../../lab/redfishBmc";
import { startBootProxy } from "../../../relay/bootProxy";
import { redfishDriver } from "../../../relay/drivers/redfish";
import { grubConfig, mediaArgs, mediaLibrary } from "../../../relay/virtualMedia";

jest.setTimeout(60_000);

/**
 * Virtual media on the relay (issue 53), in the fast tier: the image built with Debian's own tools
 * (xorriso, grub-mkimage, mkfs.vfat, mtools: the boot tier boots it), served with byte ranges from
 * the relay's boot server, and inserted through the Redfish driver into the tests' BMC, whose
 * machine here is held in memory. The service is a small HTTP server with the shared files.
 */
const BOOT = {
  kernel: "/common/vmlinuz-test",
  initrd: "/common/initrd-test",
  args: ["NODE_ID=abc", "BOOTIF=01-52-54-00-12-34-56", "MEDIA_PROFILE=1"],
};

let service: Server;
let api = "";
let loadersMissing = false;
const asked: string[] = [];
const tools = ["xorriso", "grub-mkimage", "mkfs.vfat", "mcopy"].every((tool) => {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
});

beforeAll(async () => {
  service = createServer((request, response) => {
    asked.push(`${request.url} ${request.headers.authorization}`);
    const files: Record<string, string> = {
      "/common/vmlinuz-test": "KERNEL".repeat(1000),
      "/common/initrd-test": "INITRD".repeat(1000),
      "/common/shimx64.efi": "SHIM",
      "/common/grubcdx64.efi": "GRUB",
    };
    const body = request.url?.includes("efi") && loadersMissing ? undefined : files[request.url ?? ""];
    if (body === undefined) return response.writeHead(404).end("{}");
    response.writeHead(200, { "content-type": "application/octet-stream" }).end(body);
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(service.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())));

describe("the relay's virtual media image", () => {
  it("puts the job's words and the relay's API_BASE on the kernel line, and refuses a word GRUB or the kernel would read", () => {
    expect(mediaArgs(BOOT, "http://10.1.0.2:8080/api/current")).toEqual([...BOOT.args, "API_BASE=http://10.1.0.2:8080/api/current"]);
    expect(grubConfig(["A=1", "B=2"])).toContain("linux /boot/vmlinuz A=1 B=2\ninitrd /boot/initrd.img\nboot\n");
    for (const word of ["a b", "x;reboot", "$(id)", "a\nb", "", '"q"', "x".repeat(513)])
      expect(() => mediaArgs({ ...BOOT, args: [word] }, "http://r/api/current")).toThrow(/character GRUB would read/);
    expect(() => mediaArgs({ ...BOOT, args: Array.from({ length: 32 }, (_, i) => `W=${i}`) }, "http://r")).toThrow(/at most 32 words/);
  });

  (tools ? it : it.skip)(
    "is an ISO 9660 CD with GRUB for BIOS and shim for UEFI, served with byte ranges until the node's next replaces it",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "media-test-"));
      const media = mediaLibrary({ api, token: "relay-token", publicUrl: "http://127.0.0.1:1", dir });
      const proxy = await startBootProxy({ api, token: "relay-token", listen: "127.0.0.1:0", serveLocal: media.serve });
      try {
        const url = await media.publish("node-1", BOOT, true);
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:1\/media\/[0-9a-f]{32}\.iso$/);
        // The relay fetched the files with its own credential.
        expect(asked).toEqual(
          expect.arrayContaining(["/common/vmlinuz-test Bearer relay-token", "/common/grubcdx64.efi Bearer relay-token"]),
        );
        const local = `${proxy.url}${new URL(url).pathname}`;
        const whole = Buffer.from(await (await fetch(local)).arrayBuffer());
        writeFileSync(join(dir, "copy.iso"), whole);
        // xorriso reads it back: both El Torito boot images, the kernel line, the files.
        const report = execFileSync("xorriso", ["-indev", join(dir, "copy.iso"), "-report_el_torito", "plain"], {
          encoding: "utf8",
          stdio: "pipe",
        });
        expect(report).toMatch(/El Torito boot img :\s+1\s+BIOS/);
        expect(report).toMatch(/El Torito boot img :\s+2\s+UEFI/);
        execFileSync(
          "xorriso",
          ["-osirrox", "on", "-indev", join(dir, "copy.iso"), "-extract", "/boot/grub/grub.cfg", join(dir, "grub.cfg")],
          { stdio: "ignore" },
        );
        expect(readFileSync(join(dir, "grub.cfg"), "utf8")).toContain(
          `linux /boot/vmlinuz ${BOOT.args.join(" ")} API_BASE=http://127.0.0.1:1/api/current`,
        );
        // A BMC reads ranges.
        const part = await fetch(local, { headers: { range: "bytes=32768-32773" } });
        expect(part.status).toBe(206);
        expect(part.headers.get("content-range")).toBe(`bytes 32768-32773/${whole.length}`);
        expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(32768, 32774));
        expect((await fetch(local, { headers: { range: `bytes=${whole.length}-` } })).status).toBe(416);
        expect((await fetch(local, { method: "HEAD" })).headers.get("content-length")).toBe(String(whole.length));
        // The node's next image replaces it: the first is no longer served, nor is a name never given.
        const next = await media.publish("node-1", BOOT, false);
        expect((await fetch(local)).status).toBe(404);
        expect((await fetch(`${proxy.url}${new URL(next).pathname}`)).status).toBe(200);
        expect((await fetch(`${proxy.url}/media/${"0".repeat(32)}.iso`)).status).toBe(404);
        media.withdraw("node-1");
        expect((await fetch(`${proxy.url}${new URL(next).pathname}`)).status).toBe(404);
      } finally {
        await proxy.close();
        media.close();
        expect(existsSync(dir)).toBe(false);
      }
    },
  );

  (tools ? it : it.skip)(
    "without the service's signed loaders, builds a BIOS image still, and refuses a machine known to boot by UEFI, naming them",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "media-test-"));
      const media = mediaLibrary({ api, token: "t", publicUrl: "http://r", dir });
      const proxy = await startBootProxy({ api, token: "t", listen: "127.0.0.1:0", serveLocal: media.serve });
      loadersMissing = true;
      try {
        const bios = await media.publish("node-2", BOOT, false);
        writeFileSync(join(dir, "bios.iso"), Buffer.from(await (await fetch(`${proxy.url}${new URL(bios).pathname}`)).arrayBuffer()));
        const report = execFileSync("xorriso", ["-indev", join(dir, "bios.iso"), "-report_el_torito", "plain"], {
          encoding: "utf8",
          stdio: "pipe",
        });
        expect(report).toMatch(/El Torito boot img :\s+1\s+BIOS/);
        expect(report).not.toMatch(/UEFI/);
        await expect(media.publish("node-3", BOOT, true)).rejects.toThrow(
          "building the boot image: GET /common/shimx64.efi answered 404: a UEFI machine's image needs the signed loaders",
        );
      } finally {
        loadersMissing = false;
        await proxy.close();
        media.close();
      }
    },
  );

  it("fails saying which file the service did not give, and which tool failed, and serves nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "media-test-"));
    const media = mediaLibrary({ api, token: "t", publicUrl: "http://r", dir });
    try {
      await expect(media.publish("n", { ...BOOT, kernel: "/common/missing" }, false)).rejects.toThrow(
        "building the boot image: GET /common/missing answered 404",
      );
      await expect(media.publish("n", { ...BOOT, kernel: "/api/current/nodes" }, false)).rejects.toThrow(
        /not one of the service's shared files/,
      );
      const broken = mediaLibrary({ api, token: "t", publicUrl: "http://r", dir: join(dir), programs: { grubMkimage: "false" } });
      await expect(broken.publish("n", BOOT, false)).rejects.toThrow(/building the boot image: Command failed: false/);
    } finally {
      media.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A machine held in memory, with its CD and its next boot device. */
function memoryMachine(): RedfishMachine & { inserted: (string | undefined)[]; boots: (string | undefined)[] } {
  let on = false;
  const inserted: (string | undefined)[] = [];
  const boots: (string | undefined)[] = [];
  return {
    inserted,
    boots,
    running: () => on,
    reset: async (type) => {
      on = !["ForceOff", "GracefulShutdown"].includes(type);
    },
    stop: async () => {
      on = false;
    },
    insertMedia: async (file) => {
      inserted.push(file);
    },
    bootOnce: (target) => {
      boots.push(target);
    },
  };
}

describe("the Redfish driver's virtual media", () => {
  const image = "ISO".repeat(100);
  let images: Server;
  let imageUrl = "";
  beforeAll(async () => {
    images = createServer((_request, response) => response.writeHead(200).end(image));
    await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
    imageUrl = `http://127.0.0.1:${(images.address() as { port: number }).port}/media/${"a".repeat(32)}.iso`;
  });
  afterAll(() => new Promise<void>((resolve) => images.close(() => resolve())));

  const library = () => {
    const published: string[] = [];
    const withdrawn: string[] = [];
    return {
      published,
      withdrawn,
      publish: async (node: string) => {
        published.push(node);
        return imageUrl;
      },
      withdraw: (node: string) => void withdrawn.push(node),
      serve: () => false,
      close: () => undefined,
    };
  };

  it("inserts the relay's image into the BMC's virtual CD, boots it once, and the BMC's next start boots the CD, once", async () => {
    const machine = memoryMachine();
    const bmc = await startRedfishBmc({ user: "root", password: "calvin", machine });
    const media = library();
    const drive = redfishDriver({ pollMs: 20, waitMs: 5_000, timeoutMs: 5_000, media });
    try {
      const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
      const insert = { kind: "virtualMedia", action: "insert", uefi: true, boot: BOOT } as const;
      const result = await drive(config, insert, { node: "node-1" });
      expect(result).toEqual({
        ok: true,
        output: `Inserted ${imageUrl} into /redfish/v1/Managers/BMC/VirtualMedia/CD1; Boot once from Cd (UEFI)`,
      });
      expect(media.published).toEqual(["node-1"]);
      expect(bmc.media()).toEqual({ Image: imageUrl, Inserted: true });
      // The BMC copied the image and put it in the machine's drive.
      expect(readFileSync(machine.inserted[0] ?? "", "utf8")).toBe(image);
      await drive(config, { kind: "power", action: "on" });
      await drive(config, { kind: "power", action: "reset" });
      expect(machine.boots).toEqual(["Cd", undefined]);
      // Inserted again: the CD is ejected first (a BMC refuses an insert into a full drive).
      expect((await drive(config, insert, { node: "node-1" })).ok).toBe(true);
      expect(bmc.requests.filter((line) => line.includes("VirtualMedia."))).toEqual([
        expect.stringContaining("InsertMedia"),
        expect.stringContaining("EjectMedia"),
        expect.stringContaining("InsertMedia"),
      ]);
      expect(await drive(config, { kind: "virtualMedia", action: "eject" }, { node: "node-1" })).toEqual({
        ok: true,
        output: `Ejected ${imageUrl}`,
      });
      expect(media.withdrawn).toEqual(["node-1"]);
      expect(bmc.media()).toEqual({ Image: null, Inserted: false });
      expect(await drive(config, { kind: "virtualMedia", action: "eject" }, { node: "node-1" })).toEqual({
        ok: true,
        output: "The virtual CD was empty",
      });
      expect(bmc.openSessions()).toBe(0);
    } finally {
      await bmc.close();
    }
  });

  it("refuses an insert on a relay that serves no boot files, and reports a BMC that cannot fetch the image, in its words", async () => {
    const bmc = await startRedfishBmc({ user: "root", password: "calvin", machine: memoryMachine() });
    try {
      const config = { uri: bmc.url, user: "root", password: "calvin", ca: bmc.ca };
      const insert = { kind: "virtualMedia", action: "insert", uefi: false, boot: BOOT } as const;
      expect(await redfishDriver()(config, insert, { node: "n" })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/serves no boot files/),
      });
      const unreachable = { ...library(), publish: async () => "http://127.0.0.1:1/media/x.iso" };
      const result = await redfishDriver({ media: unreachable })(config, insert, { node: "n" });
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^Insert http:\/\/127\.0\.0\.1:1\/media\/x\.iso: the BMC answered 400: The image at/),
      });
      expect(bmc.media().Inserted).toBe(false);
    } finally {
      await bmc.close();
    }
  });
});
