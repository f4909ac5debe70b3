/* What every loader's microkernel line carries (iPXE's, GRUB's, a virtual media image's); no Node module, so the console's types reach it. */

/**
 * The microkernel's kernel skips its IO-APIC timer check. The check counts timer ticks over a short
 * busy loop; on a hypervisor that is slow to deliver ticks (software emulation, an overloaded host)
 * it finds too few and panics ("IO-APIC + timer doesn't work!") before the machine is discovered.
 * Virtual machines' images carry the same word for the same reason; on a server whose timer is wired
 * as the firmware says, skipping the check changes nothing.
 */
export const TIMER_CHECK_OFF = "no_timer_check";
