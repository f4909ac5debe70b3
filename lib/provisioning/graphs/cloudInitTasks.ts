import { MICROKERNEL_FILES } from "./discoveryTasks";
import type { LibraryTask } from "./graphTypes";
import { installTask } from "./installTask";

/**
 * Installs of today's systems, configured by cloud-init from the node's seed (issue 26). Each
 * reports to the service as it goes (cloud-init's webhook format) and, with `waitForFirstBoot`
 * (the default), ends only when the installed system's first boot has finished; `false` ends it
 * when the installer reports it wrote the system. docs/cloud-init.md lists every option.
 */
// No default root password (RackHD had one) and no fixed host name: the node's name is its host name, its SSH keys its login.
const cloudInit = (options: Record<string, unknown>) => ({
  waitForFirstBoot: true,
  completionUri: "renasar-ansible.pub",
  rootPassword: null,
  hostname: null,
  ...options,
});

export const CLOUD_INIT_TASKS: readonly LibraryTask[] = [
  {
    ...installTask(
      "Task.Os.Install.Image",
      "Install a disk image",
      { linux: { distribution: "image" } },
      cloudInit({
        profile: "install-image.ipxe",
        installScript: "install-image.sh",
        // A file in the file store (its name) or an http(s) URL; raw, or gzip-compressed (`.gz`).
        image: null,
        // The disk to write (`/dev/vda`, `/dev/sda`, `/dev/nvme0n1`); null: the first disk found.
        installDisk: null,
        // The product's installer: the microkernel (`npm run microkernel`), which runs the install script.
        kernelFile: MICROKERNEL_FILES.kernel,
        initrdFile: MICROKERNEL_FILES.initrd,
        kernelUri: "{{file.server}}/common/{{options.kernelFile}}",
        initrdUri: "{{file.server}}/common/{{options.initrdFile}}",
      }),
    ),
    implementsTask: "Task.Base.Os.Install.Image",
  },
  {
    ...installTask(
      "Task.Os.Install.Ubuntu.Autoinstall",
      "Install Ubuntu (autoinstall)",
      { linux: { distribution: "ubuntu" } },
      cloudInit({
        profile: "install-ubuntu-autoinstall.ipxe",
        // What the installer fetches first: its autoinstall config, from the node's seed.
        installScript: "autoinstall/user-data",
        version: "24.04",
        // Where casper/vmlinuz, casper/initrd and the ISO are (the ISO's contents, served over HTTP).
        repo: null,
        iso: "ubuntu-{{options.version}}-live-server-amd64.iso",
      }),
    ),
    implementsTask: "Task.Base.Os.Install.Repo",
  },
  {
    ...installTask(
      "Task.Os.Install.Debian",
      "Install Debian (preseed)",
      { linux: { distribution: "debian" } },
      cloudInit({
        profile: "install-debian.ipxe",
        installScript: "debian-preseed",
        version: "bookworm",
        repo: "http://deb.debian.org/debian",
      }),
    ),
    implementsTask: "Task.Base.Os.Install.Repo",
  },
  {
    ...installTask(
      "Task.Os.Install.EL9",
      "Install Rocky or Alma Linux 9 (kickstart)",
      { linux: { distribution: "rhel" } },
      cloudInit({ profile: "install-el9.ipxe", installScript: "el9-ks", version: "9", repo: null }),
    ),
    implementsTask: "Task.Base.Os.Install.Repo",
  },
];
