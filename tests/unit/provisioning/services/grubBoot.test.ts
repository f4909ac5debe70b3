import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { chooseLoader, parseLoader } from "../../../../lib/provisioning/boot/bootLoader";
import { bootProfile, uefiLoaderFor } from "../../../../lib/provisioning/boot/bootService";
import { grubProfileScript, tftpPath } from "../../../../lib/provisioning/boot/grub";
import { aNode, memoryStores, T0 } from "./setUp";

const api = apiContextFor("http://10.0.0.1:9080");
const MAC = "52:54:00:5b:00:01";

describe("GRUB's scripts, for machines with Secure Boot on (issue 38)", () => {
  it("takes ?loader= as ipxe (the default) or grub, and refuses any other or two", () => {
    expect(parseLoader(undefined)).toBe("ipxe");
    expect(parseLoader([])).toBe("ipxe");
    expect(parseLoader(["ipxe"])).toBe("ipxe");
    expect(parseLoader(["grub"])).toBe("grub");
    const refusal = (values: string[]) => {
      try {
        parseLoader(values);
      } catch (error) {
        return error;
      }
    };
    expect(refusal(["pxelinux"])).toMatchObject({ kind: "bad-request", message: expect.stringContaining("pxelinux") });
    expect(refusal(["grub", "ipxe"])).toMatchObject({ kind: "bad-request" });
  });

  it("fetches this service's files through the relay's TFTP, and nothing elsewhere", () => {
    expect(tftpPath("http://10.0.0.1:9080/common/vmlinuz", api)).toBe("(tftp)/common/vmlinuz");
    expect(tftpPath("http://10.0.0.1:9080/api/current/templates/x?nodeId=a&token=b", api)).toBe(
      "(tftp)/api/current/templates/x?nodeId=a&token=b",
    );
    expect(tftpPath("http://mirror.example/debian/linux", api)).toBeUndefined();
    expect(tftpPath("http://10.0.0.1:9081/common/vmlinuz", api)).toBeUndefined();
    expect(tftpPath("not a url", api)).toBeUndefined();
    expect(tftpPath("http://files.example/common/initrd", apiContextFor("http://10.0.0.1:9080", "http://files.example"))).toBe(
      "(tftp)/common/initrd",
    );
  });

  it("discovers a new machine as iPXE does, answering the microkernel as GRUB boots it: each argument one quoted word", async () => {
    const stores = memoryStores();
    const script = await bootProfile(stores, [MAC], "10.0.0.50", api, T0, { graph: "Graph.SKU.Discovery" }, "grub");
    const [node] = await stores.nodes.list();
    const [workflow] = await stores.workflows.list();
    const lines = script.split("\n");
    expect(lines[0]).toBe(`echo 'Starting the discovery microkernel for ${MAC}'`);
    const linux = lines.find((line) => line.startsWith("if linux "))!;
    expect(linux).toMatch(/^if linux '\(tftp\)\/common\/[^']+' /);
    for (const arg of [
      "'API_BASE=http://10.0.0.1:9080/api/current'",
      `'NODE_ID=${node.id}'`,
      `'BOOT_TOKEN=${workflow.bootToken}'`,
      "'BOOTIF=01-52-54-00-5b-00-01'",
      // Under emulation the kernel's timer check can fail and panic (TIMER_CHECK_OFF).
      "'no_timer_check'",
      "'console=tty0'",
      "'console=ttyS0,115200n8'",
      // The same discovery arguments as under iPXE: without OVERLAYFS a Secure Boot machine got no
      // ipmitool, and its BMC was never found (issue 50).
      "'OVERLAYFS=http://10.0.0.1:9080/common/discovery.overlay.cpio.gz'",
      "'API_CB=10.0.0.1:9080'",
      "'auto=true'",
    ])
      expect(linux).toContain(` ${arg}`);
    // iPXE's initrd= names the file its EFI stub loads: GRUB hands the initrd over itself.
    expect(linux).not.toContain("initrd=");
    expect(lines).toContain(
      "  if initrd '(tftp)/common/" +
        String(workflow.tasks[Object.keys(workflow.tasks)[0]].options.initrdUri).split("/common/")[1] +
        "'; then",
    );
    expect(lines).toContain("    boot");
    expect(lines.at(-2)).toBe("exit");
    expect(node.identifiers).toEqual([MAC]);
  });

  it("says why and leaves for what has no GRUB form, nothing to boot, or a machine just recorded", async () => {
    const context = { options: { profile: "install-centos.ipxe" }, api, nodeId: "n1", mac: MAC };
    expect(grubProfileScript("install-centos.ipxe", context)).toMatch(
      /^echo 'The boot profile install-centos.ipxe has no GRUB form: under Secure Boot only a kernel signed by Debian boots/,
    );
    const elsewhere = {
      ...context,
      options: { kernelUri: "http://mirror.example/linux", initrdUri: "http://10.0.0.1:9080/common/initrd" },
    };
    expect(grubProfileScript("linux.ipxe", elsewhere)).toMatch(
      /^echo 'Cannot boot the discovery microkernel: its kernelUri or initrdUri is not on this service/,
    );
    const stores = memoryStores();
    expect(await bootProfile(stores, [MAC], undefined, api, T0, { graph: undefined }, "grub")).toMatch(
      /^echo 'Discovered node [0-9a-f]+ \(52:54:00:5b:00:01\). No workflow is active for this node'\n.*\nsleep 3\nsearch --no-floppy --file --set=installed \/EFI\/BOOT\/BOOTX64\.EFI\nif \[ -n "\$installed" \]; then\n {2}chainloader \(\$installed\)\/EFI\/BOOT\/BOOTX64\.EFI\n {2}boot\nfi\nexit\n$/,
    );
    expect(await bootProfile(stores, [MAC], undefined, api, T0, { graph: undefined }, "grub")).toMatch(
      /^echo 'Unable to locate active workflow.'/,
    );
    expect(await bootProfile(stores, [], undefined, api, T0, { graph: undefined }, "grub")).toContain("its file is grub/machine/<mac>");
  });

  it("keeps a message one inert word whatever it holds", () => {
    const context = { options: { profile: "x'; reboot; echo '" }, api, nodeId: "n1", mac: MAC };
    const script = grubProfileScript("x'; reboot; echo '", context);
    expect(script.split("\n")[0]).toBe(
      `echo 'The boot profile x'\\''; reboot; echo '\\'' has no GRUB form: under Secure Boot only a kernel signed by Debian boots (the microkernel, the image install)'`,
    );
  });

  describe("which loader a UEFI machine is handed (the relay's uefi.efi)", () => {
    it("is the node's own choice first, then GRUB for a machine that reported Secure Boot on, then the setting", async () => {
      const stores = memoryStores();
      const node = await aNode(stores, "n1", MAC);
      expect(await uefiLoaderFor(stores, [MAC], "ipxe")).toEqual({ loader: "ipxe", file: "snponly.efi", because: "setting" });
      expect(await uefiLoaderFor(stores, [MAC], "grub")).toEqual({ loader: "grub", file: "shimx64.efi", because: "setting" });
      await stores.nodes.update(node.id, (current) => ({ ...current, secureBoot: { state: "enabled", reportedAt: T0.toISOString() } }));
      expect(await uefiLoaderFor(stores, [MAC], "ipxe")).toEqual({ loader: "grub", file: "shimx64.efi", because: "secure-boot" });
      // An operator who names a loader is obeyed, even against the firmware's report.
      await stores.nodes.update(node.id, (current) => ({ ...current, bootLoader: "ipxe" }));
      expect(await uefiLoaderFor(stores, [MAC], "grub")).toEqual({ loader: "ipxe", file: "snponly.efi", because: "node" });
    });

    it("answers the setting's for a machine it does not know or cannot tell, and refuses what is not a MAC", async () => {
      const stores = memoryStores();
      expect(await uefiLoaderFor(stores, ["52:54:00:00:00:09"], "grub")).toMatchObject({ loader: "grub", because: "setting" });
      expect(await uefiLoaderFor(stores, [], "ipxe")).toMatchObject({ loader: "ipxe", because: "setting" });
      await expect(uefiLoaderFor(stores, ["not-a-mac"], "ipxe")).rejects.toMatchObject({ kind: "bad-request" });
      // Secure Boot off or unknown does not choose: the setting does.
      const off = { secureBoot: { state: "disabled" } } as unknown as Parameters<typeof chooseLoader>[0];
      expect(chooseLoader(off, "ipxe").because).toBe("setting");
      const odd = { bootLoader: "pxelinux" } as unknown as Parameters<typeof chooseLoader>[0];
      expect(chooseLoader(odd, "ipxe")).toMatchObject({ loader: "ipxe", because: "setting" });
    });
  });
});
