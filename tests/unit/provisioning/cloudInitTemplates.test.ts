import { spawnSync } from "node:child_process";
import { unpacker } from "../../../lib/provisioning/boot/cloudInitTemplates";
import { renderInstallTemplate } from "../../../lib/provisioning/boot/installTemplates";
import { SEED_CONFIG_PATH } from "../../../lib/provisioning/cloudInit/seedConfig";
import { api, instance } from "./renderContext";

/**
 * The install scripts of today's installs (lib/provisioning/boot/cloudInitTemplates.ts), read as
 * their installers read them: d-i's preseed as `d-i question type value` lines, anaconda's
 * kickstart as commands and %sections, and every shell part checked by `sh -n`.
 */
const render = (name: string, options: Record<string, unknown>) =>
  renderInstallTemplate(name, { options, api, nodeId: "0123456789abcdef01234567", mac: "52:54:00:00:00:01", instance });

/** `sh -n`: the text parses as a shell script (nothing runs). */
const parsesAsShell = (script: string) => spawnSync("sh", ["-n"], { input: script }).status === 0;

describe("the Debian preseed (debian-preseed)", () => {
  /** d-i's answers: question → "type value". */
  const answers = (preseed: string) =>
    new Map(
      preseed
        .split("\n")
        .filter((line) => line.startsWith("d-i ") || line.startsWith("tasksel "))
        .map((line) => {
          const [, question, ...rest] = line.split(" ");
          return [question, rest.join(" ")] as const;
        }),
    );
  /** The script a `preseed/..._command` runs, as printf %b decodes it. */
  const commandScript = (value: string) => {
    const quoted = /^string printf '%b' '(.*)' > (\S+); sh \2$/.exec(value);
    expect(quoted).not.toBeNull();
    return quoted![1].replace(/'\\''/g, "'").replace(/\\n/g, "\n").replace(/\\\\/g, "\\");
  };

  it("answers d-i's questions from the options: host name, mirror host and directory, disk; root login off; cloud-init in", () => {
    const preseed = render("debian-preseed", { hostname: "web-1", repo: "http://deb.example/debian", installDisk: "/dev/sda" });
    const d = answers(preseed);
    expect(d.get("netcfg/get_hostname")).toBe("string web-1");
    expect(d.get("mirror/http/hostname")).toBe("string deb.example");
    expect(d.get("mirror/http/directory")).toBe("string /debian");
    expect(d.get("partman-auto/disk")).toBe("string /dev/sda");
    expect(d.get("passwd/root-login")).toBe("boolean false");
    expect(d.get("passwd/make-user")).toBe("boolean false");
    expect(d.get("pkgsel/include")).toBe("string cloud-init curl");
    expect(d.get("tasksel/first")).toBe("multiselect standard, ssh-server");
    expect(d.get("partman/confirm_nooverwrite")).toBe("boolean true");
    expect(d.get("grub-installer/bootdev")).toBe("string default");
    expect(preseed.split("\n")[0]).toBe("# Debian preseed for node 0123456789abcdef01234567");
    expect(preseed.endsWith("d-i finish-install/reboot_in_progress note\n")).toBe(true);
  });

  it("takes a repository that is not a URL as the host, with no directory, and a host name of debian by default", () => {
    const d = answers(render("debian-preseed", { repo: "<%=mirror%>" }));
    expect(d.get("mirror/http/hostname")).toBe("string <%=mirror%>");
    expect(d.get("mirror/http/directory")).toBe("string ");
    expect(d.get("netcfg/get_hostname")).toBe("string debian");
    expect(d.get("partman-auto/disk")).toBe("string ");
  });

  it("reports the install's start early, and late writes the seed config into the target, uploads the log and reports the end", () => {
    const d = answers(render("debian-preseed", { repo: "http://deb.example/debian" }));
    const early = commandScript(d.get("preseed/early_command")!);
    const late = commandScript(d.get("preseed/late_command")!);
    expect(parsesAsShell(early)).toBe(true);
    expect(parsesAsShell(late)).toBe(true);
    expect(early).toContain(`REPORT_URL='${instance.reportUrl}'`);
    expect(early.trim().split("\n").at(-1)).toBe("report start install '' 'The Debian installer started'");
    expect(late).toContain(`> /target${SEED_CONFIG_PATH}`);
    expect(late).toContain(instance.seedUrl);
    expect(late.split("\n").slice(-2)).toEqual([
      "upload_log installer /var/log/syslog",
      "report finish install SUCCESS 'The Debian installer wrote the system'",
    ]);
  });
});

describe("the Rocky / Alma Linux 9 kickstart (el9-ks)", () => {
  /** The kickstart's sections: the commands before the first, then each %section's lines to its %end. */
  const sections = (kickstart: string) => {
    const found = new Map<string, string[]>([["commands", []]]);
    let current = "commands";
    for (const line of kickstart.split("\n")) {
      if (line.startsWith("%") && line !== "%end") {
        current = line;
        found.set(current, []);
      } else if (line === "%end") current = "after";
      else if (line !== "") (found.get(current) ?? found.set(current, []).get(current)!).push(line);
    }
    return found;
  };

  it("installs from the repository with cloud-init, the root account locked, on the disk given only", () => {
    const ks = sections(render("el9-ks", { repo: "http://rocky.example/9/BaseOS", installDisk: "sdb", comport: "ttyS1" }));
    const commands = ks.get("commands")!;
    expect(commands).toEqual(
      expect.arrayContaining([
        "text",
        "url --url=http://rocky.example/9/BaseOS",
        "rootpw --lock",
        "ignoredisk --only-use=sdb",
        'bootloader --append="console=ttyS1,115200n8"',
        "selinux --enforcing",
        "firewall --enabled --service=ssh",
        "clearpart --all --initlabel",
        "autopart",
        "reboot",
      ]),
    );
    expect(ks.get("%packages")).toEqual(["@core", "cloud-init", "curl"]);
    const anyDisk = sections(render("el9-ks", { repo: "http://rocky.example/9/BaseOS", comport: "ttyS0" })).get("commands")!;
    expect(anyDisk.some((line) => line.startsWith("ignoredisk"))).toBe(false);
  });

  it("reports its start in %pre, a failure with anaconda's logs in %onerror, writes the seed config in %post and reports the end outside the chroot", () => {
    const ks = sections(render("el9-ks", { repo: "http://rocky.example/9/BaseOS", comport: "ttyS0" }));
    for (const name of ["%pre", "%onerror", "%post", "%post --nochroot"]) expect(parsesAsShell(ks.get(name)!.join("\n"))).toBe(true);
    expect(ks.get("%pre")!.at(-1)).toBe("report start install '' 'The EL9 installer started'");
    expect(ks.get("%onerror")!.slice(-3)).toEqual([
      "cat /tmp/anaconda.log /tmp/storage.log /tmp/packaging.log > /tmp/installer.log 2>/dev/null",
      "upload_log installer /tmp/installer.log",
      "report finish install FAIL 'anaconda stopped on an error: see the installer log'",
    ]);
    expect(ks.get("%post")!.join("\n")).toContain(`> ${SEED_CONFIG_PATH}`);
    expect(ks.get("%post")!.join("\n")).toContain(instance.seedUrl);
    expect(ks.get("%post --nochroot")!.slice(-2)).toEqual([
      "upload_log installer /tmp/anaconda.log",
      "report finish install SUCCESS 'The EL9 installer wrote the system'",
    ]);
  });
});

describe("the image installer (install-image.sh)", () => {
  it("is a shell script that unpacks a .gz image and copies any other, from the file store or a URL", () => {
    const gz = render("install-image.sh", { image: "http://files.example/debian.raw.gz" });
    const raw = render("install-image.sh", { image: "debian.raw" });
    expect(parsesAsShell(gz)).toBe(true);
    expect(parsesAsShell(raw)).toBe(true);
    expect(gz).toContain('wget -q -O - "$image_url" | gunzip -c | dd');
    expect(raw).toContain('wget -q -O - "$image_url" | cat | dd');
    expect(gz).toContain("image_url='http://files.example/debian.raw.gz'");
    expect(raw).toContain(`image_url='${api.files}/debian.raw'`);
    expect(raw).toContain("disk=''");
    expect(raw.split("\n").slice(-3)).toEqual(["report finish install SUCCESS 'The image installer wrote the system'", "reboot -f", ""]);
  });

  it("unpacks an image by its name's ending, a URL's query aside, and writes any other as it comes", () => {
    const cases: [string, string][] = [
      ["debian.raw.gz", "gunzip -c"],
      ["https://images.example/debian.raw.zst?signature=abc.gz", "zstd -dcq --long=31"],
      ["fedora.raw.xz", "unxz -c"],
      ["flatcar.bin.bz2", "bunzip2 -c"],
      ["http://images.example/debian.raw?name=x.zst", "cat"],
      ["debian.img", "cat"],
    ];
    for (const [image, command] of cases) {
      expect(unpacker(image)).toBe(command);
      expect(render("install-image.sh", { image })).toContain(`wget -q -O - "$image_url" | ${command} | dd`);
    }
  });
});

describe("RackHD's install templates", () => {
  const lines = (text: string) => text.split("\n");
  const completion = [
    expect.stringMatching(
      /^wget --spider 'http:\/\/svc\.example\/api\/current\/templates\/done\?nodeId=0123456789abcdef01234567&token=t1' \|\| true$/,
    ),
    expect.stringMatching(
      /^curl -fsS -X POST .*'http:\/\/svc\.example\/api\/current\/notification\?nodeId=0123456789abcdef01234567&token=t1' \|\| true$/,
    ),
  ];
  const renderWithToken = (name: string, options: Record<string, unknown>) =>
    renderInstallTemplate(name, {
      options: { completionUri: "done", ...options },
      api,
      nodeId: "0123456789abcdef01234567",
      mac: "",
      token: "t1",
    });

  it("centos-ks: static and DHCP devices, name servers, crypted users, the root key, the disk, and both completions", () => {
    const ks = lines(
      renderWithToken("centos-ks", {
        repo: "http://mirror/centos/7",
        hostname: "web",
        domain: "lab",
        dnsServers: ["10.0.0.2", "10.0.0.3"],
        networkDevices: [
          { device: "eth0", ipv4: { ipAddr: "10.0.0.9", netmask: "255.255.255.0", gateway: "10.0.0.1" } },
          { device: "eth1" },
          null,
        ],
        users: [
          { name: "ops", encryptedPassword: "$6$x$y", uid: 1010 },
          { name: "dev", encryptedPassword: "$6$a$b" },
        ],
        rootEncryptedPassword: "$6$r$s",
        rootSshKey: "ssh-ed25519 AAAA ops",
        installDisk: "vda",
        comport: "ttyS0",
      }),
    );
    expect(ks).toEqual(
      expect.arrayContaining([
        "network --bootproto=dhcp --hostname=web.lab --nameserver=10.0.0.2,10.0.0.3",
        "network --device=eth0 --bootproto=static --ip=10.0.0.9 --netmask=255.255.255.0 --gateway=10.0.0.1",
        "network --device=eth1 --bootproto=dhcp",
        "user --name=ops --password=$6$x$y --iscrypted --uid=1010",
        "user --name=dev --password=$6$a$b --iscrypted",
        "rootpw --iscrypted $6$r$s",
        'bootloader --location=mbr --driveorder=vda --append="console=ttyS0,115200n8"',
        "clearpart --all --initlabel --drives=vda",
        "echo 'ssh-ed25519 AAAA ops' >> /root/.ssh/authorized_keys",
        ...completion,
      ]),
    );
    expect(ks.filter((line) => line.startsWith("network "))).toHaveLength(3);
    const plain = lines(renderWithToken("centos-ks", { repo: "http://mirror/centos/7", hostname: "h", domain: "d", dnsServers: [] }));
    expect(plain).toContain("network --bootproto=dhcp --hostname=h.d");
    expect(plain).toContain("clearpart --all --initlabel --drives=sda");
    expect(plain.some((line) => line.includes("authorized_keys"))).toBe(false);
  });

  it("ubuntu-preseed: host, domain, mirror, the crypted root password and a late command that completes", () => {
    const preseed = lines(
      renderWithToken("ubuntu-preseed", { hostname: "u1", domain: "lab", repo: "mirror.example", rootEncryptedPassword: "$6$r$s" }),
    );
    expect(preseed).toEqual(
      expect.arrayContaining([
        "d-i netcfg/get_hostname string u1",
        "d-i netcfg/get_domain string lab",
        "d-i mirror/http/hostname string mirror.example",
        "d-i passwd/root-password-crypted password $6$r$s",
      ]),
    );
    const late = preseed.find((line) => line.startsWith("d-i preseed/late_command string in-target sh -c "));
    expect(late).toContain("wget --spider");
    expect(late).toContain("/notification?nodeId=0123456789abcdef01234567&token=t1");
    expect(late).not.toContain("# Signal completion");
  });

  it("pxe-cloud-config.yml: YAML strings that are the values' exact text, and the SSH key only when given", () => {
    const config = renderWithToken("pxe-cloud-config.yml", {
      hostname: 'a: "b"',
      rootEncryptedPassword: "$6$r$s",
      rootSshKey: "ssh-rsa K",
    });
    expect(lines(config)).toEqual([
      "#cloud-config",
      expect.stringContaining("CoreOS"),
      'hostname: "a: \\"b\\""',
      "users:",
      "  - name: core",
      '    passwd: "$6$r$s"',
      "    ssh-authorized-keys:",
      '      - "ssh-rsa K"',
      "",
    ]);
    expect(renderWithToken("pxe-cloud-config.yml", {})).not.toContain("ssh-authorized-keys");
    expect(renderWithToken("pxe-cloud-config.yml", {})).toContain('hostname: ""');
  });

  it("esx-ks: the first disk unless one is named, and completion at first boot", () => {
    const ks = lines(renderWithToken("esx-ks", { rootEncryptedPassword: "$6$r$s", hostname: "esx", domain: "lab" }));
    expect(ks).toEqual(
      expect.arrayContaining([
        "vmaccepteula",
        "install --firstdisk --overwritevmfs",
        "network --bootproto=dhcp --hostname=esx.lab",
        ...completion,
      ]),
    );
    expect(ks.indexOf("%firstboot --interpreter=busybox")).toBeLessThan(ks.findIndex((line) => line.startsWith("wget --spider")));
    expect(renderWithToken("esx-ks", { installDisk: "disk=mpx.vmhba1" })).toContain("install --disk=mpx.vmhba1 --overwritevmfs");
  });

  it("renasar-ansible.pub: the completion marker, naming the node", () => {
    expect(renderWithToken("renasar-ansible.pub", {})).toMatch(/^# renasar-ansible\.pub for node 0123456789abcdef01234567: /);
  });
});
