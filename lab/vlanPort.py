#!/usr/bin/python3
"""The host's interface on a lab VLAN (issue 54), a STAND-IN for Linux's own.

On a host whose kernel has 802.1Q (the `8021q` module) and bridge VLAN filtering, the lab's host
would have `lab74.20`, a VLAN interface on its bridge. The kernel of the machine the tests run on
here has neither (`ip link add ... type vlan` and `vlan_filtering 1` answer "not supported"), nor
tc's classifiers, so this program does what that interface does, in user space: it holds two tap
devices, TRUNK (a port of the site's bridge, where the machines' tagged frames arrive) and ACCESS
(the host's end, which carries the host's address on the VLAN). A frame from the bridge tagged
with the VLAN's id leaves the tag here and goes to ACCESS; any other frame from the bridge
(untagged, or another VLAN's) is not this VLAN's, and is dropped, as a VLAN interface drops it. A
frame the host sends on ACCESS gets the tag and goes into the bridge. The guests' bonds and VLAN
interfaces are their own kernel's, untouched by this.

    vlanPort.py TRUNK ACCESS VLAN_ID    (inside the lab's namespace; the taps exist already)
"""
import fcntl
import os
import select
import struct
import sys

TUNSETIFF = 0x400454CA
IFF_TAP = 0x0002
IFF_NO_PI = 0x1000
TPID = b"\x81\x00"


def open_tap(name):
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TAP | IFF_NO_PI))
    return fd


def main():
    trunk_name, access_name, vlan = sys.argv[1], sys.argv[2], int(sys.argv[3])
    trunk, access = open_tap(trunk_name), open_tap(access_name)
    tag = TPID + struct.pack("!H", vlan)
    print(f"VLAN {vlan}: {trunk_name} (tagged, in the bridge) <-> {access_name} (the host's)", flush=True)
    while True:
        ready, _, _ = select.select([trunk, access], [], [])
        for fd in ready:
            frame = os.read(fd, 65536)
            if len(frame) < 14:
                continue
            try:
                if fd == trunk:
                    # 802.1Q: TPID 0x8100, then PCP/DEI (4 bits) and the VLAN id (12 bits).
                    if frame[12:14] == TPID and len(frame) >= 18 and struct.unpack("!H", frame[14:16])[0] & 0x0FFF == vlan:
                        os.write(access, frame[:12] + frame[16:])
                else:
                    os.write(trunk, frame[:12] + tag + frame[12:])
            except OSError:
                # A tap that is down takes no frame (EIO): lost, as on a cable that is out.
                pass


if __name__ == "__main__":
    main()
