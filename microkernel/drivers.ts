/**
 * The kernel modules the microkernel carries (issue 37): the drivers of the NICs and storage
 * controllers servers ship, by their module names in Debian's generic kernel (`linux-image-amd64`).
 * The initramfs holds these and what they depend on; /init loads only those the machine's own
 * devices ask for (their modalias), so a driver here costs initrd bytes, not boot time.
 * To add a driver: put its module's name in the right list, run `npm run microkernel`, and check
 * `docs/boot.md`'s table (the build fails, naming it, if the kernel has no such module).
 */
export const DRIVERS = {
  /** Intel, Broadcom, Mellanox, Realtek, VMware and virtio NICs. mlx4_core asks for mlx4_en itself. */
  network: [
    "e1000",
    "e1000e",
    "igb",
    "ixgbe",
    "i40e",
    "ice",
    "tg3",
    "bnxt_en",
    "bnx2x",
    "mlx4_core",
    "mlx4_en",
    "mlx5_core",
    "r8169",
    "8139too",
    "8139cp",
    "vmxnet3",
    "virtio_net",
  ],
  /** SATA (AHCI), NVMe, LSI/Broadcom and HPE/Microchip RAID and HBAs, QEMU's SCSI HBAs, virtio; sd_mod for the SCSI disks. */
  storage: [
    "ahci",
    "nvme",
    "megaraid_sas",
    "mpt3sas",
    "mptsas",
    "hpsa",
    "smartpqi",
    "sym53c8xx",
    "vmw_pvscsi",
    "virtio_scsi",
    "virtio_blk",
    "sd_mod",
  ],
  /** The virtio bus itself (its devices appear once virtio_pci has bound the PCI functions). */
  bus: ["virtio_pci"],
  /** A USB keyboard on the console (a crash cart); the serial console's 8250 driver is built in. */
  input: ["xhci_pci", "ehci_pci", "ohci_pci", "uhci_hcd", "usbhid", "hid_generic"],
  /** The machine's own BMC over its system interface (KCS/BT/SSIF) and /dev/ipmi0. */
  bmc: ["ipmi_si", "ipmi_ssif", "ipmi_devintf"],
  /**
   * The image installer mounts the installed system (ext4; vfat for an EFI system partition); ext4's
   * checksums ask for crc32c. efivarfs: the firmware's variables, where Secure Boot's state is read.
   */
  filesystems: ["ext4", "vfat", "nls_cp437", "nls_ascii", "crc32c_generic", "efivarfs"],
} as const;

export const ALL_DRIVERS: readonly string[] = Object.values(DRIVERS).flat();
