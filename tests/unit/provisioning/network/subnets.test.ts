import fc from "fast-check";
import {
  canonical,
  familyOf,
  fromSortKey,
  hostBounds,
  overlaps,
  parseCidr,
  sortKey,
  toNumber,
  toText,
} from "../../../../lib/provisioning/subnets/address";
import { checkSubnet, poolKeys, poolSize, type Subnet, unassignable } from "../../../../lib/provisioning/subnets/subnet";
import { aSubnet } from "./support";

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join("."));
const v6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((groups) => groups.map((group) => group.toString(16)).join(":"));

describe("addresses as numbers (issue 54)", () => {
  it("reads an address and writes it back canonically, in both families", () => {
    fc.assert(
      fc.property(fc.oneof(v4, v6), (text) => {
        const number = toNumber(text)!;
        expect(toText(number.family, number.value)).toBe(canonical(text));
        expect(toNumber(toText(number.family, number.value))).toEqual(number);
      }),
    );
    expect(canonical("2001:DB8:0:0::1")).toBe("2001:db8::1");
    expect(canonical("10.0.0.1")).toBe("10.0.0.1");
  });

  it("refuses what Node's strict parser refuses: short, octal and out-of-range forms", () => {
    for (const text of ["10.1", "010.0.0.1", "10.0.0.256", "1.2.3.4.5", "", "::g", "10.0.0.1/24", " 10.0.0.1"]) {
      expect(toNumber(text)).toBeUndefined();
      expect(familyOf(text)).toBeUndefined();
    }
  });

  it("orders sort keys as the addresses: string order is number order", () => {
    fc.assert(
      fc.property(fc.oneof(v4, v6), fc.oneof(v4, v6), (a, b) => {
        const [x, y] = [toNumber(a)!, toNumber(b)!];
        fc.pre(x.family === y.family);
        const [kx, ky] = [sortKey(x.family, x.value), sortKey(y.family, y.value)];
        expect(kx < ky).toBe(x.value < y.value);
        expect(fromSortKey(kx)).toBe(x.value);
      }),
    );
  });

  it("reads a CIDR only as a network address: host bits set, a prefix too long or missing are refused", () => {
    expect(parseCidr("10.20.0.0/24")).toEqual({ family: 4, network: 0x0a140000n, prefix: 24 });
    expect(parseCidr("2001:db8::/64")?.prefix).toBe(64);
    for (const text of ["10.20.0.1/24", "10.20.0.0/33", "10.20.0.0", "10.20.0.0/", "10.20.0.0/24/1", "2001:db8::/129", "x/8"]) {
      expect(parseCidr(text)).toBeUndefined();
    }
  });

  it("gives hosts all but IPv4's network and broadcast addresses (a /31 and /32 all) and IPv6's subnet-router address", () => {
    expect(hostBounds(parseCidr("10.0.0.0/24")!)).toEqual({ first: 0x0a000001n, last: 0x0a0000fen });
    expect(hostBounds(parseCidr("10.0.0.0/31")!)).toEqual({ first: 0x0a000000n, last: 0x0a000001n });
    expect(hostBounds(parseCidr("2001:db8::/127")!).first).toBe(toNumber("2001:db8::")!.value);
    expect(hostBounds(parseCidr("2001:db8::/64")!).first).toBe(toNumber("2001:db8::1")!.value);
    expect(overlaps(parseCidr("10.0.0.0/16")!, parseCidr("10.0.5.0/24")!)).toBe(true);
    expect(overlaps(parseCidr("10.0.0.0/24")!, parseCidr("10.0.1.0/24")!)).toBe(false);
    expect(overlaps(parseCidr("10.0.0.0/8")!, parseCidr("::/0")!)).toBe(false);
  });
});

const fields = (subnet: Subnet) => {
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = subnet;
  return rest;
};

describe("a subnet's rules (issue 54)", () => {
  it("keeps a good subnet, its addresses canonical", () => {
    const six = aSubnet("s6", {
      cidr: "2001:DB8:20::/64",
      gateway: "2001:db8:20:0::1",
      nameservers: ["2001:db8:20::53"],
      ranges: [{ kind: "pool", start: "2001:db8:20::100", end: "2001:db8:20::01ff" }],
    });
    expect(checkSubnet(fields(six), [])).toMatchObject({
      cidr: "2001:db8:20::/64",
      gateway: "2001:db8:20::1",
      ranges: [{ start: "2001:db8:20::100", end: "2001:db8:20::1ff" }],
    });
    expect(poolSize(six).toString()).toBe("256");
    expect(poolKeys(aSubnet("s"))).toEqual([{ from: "0a14000a", to: "0a140063" }]);
  });

  it.each([
    [{ cidr: "10.20.0.1/24" }, "cidr 10.20.0.1/24 is not a network address"],
    [
      { ranges: [{ kind: "pool" as const, start: "10.20.1.10", end: "10.20.1.20" }] },
      "ranges[0].start (10.20.1.10) is not an address inside 10.20.0.0/24",
    ],
    [
      { ranges: [{ kind: "pool" as const, start: "10.20.0.20", end: "10.20.0.10" }] },
      "ranges[0] ends (10.20.0.10) before it starts (10.20.0.20)",
    ],
    [
      {
        ranges: [
          { kind: "pool" as const, start: "10.20.0.10", end: "10.20.0.99" },
          { kind: "reserved" as const, start: "10.20.0.50", end: "10.20.0.50" },
        ],
      },
      "ranges[0] and ranges[1] overlap",
    ],
    [{ ranges: [{ kind: "pool" as const, start: "10.20.0.0", end: "10.20.0.10" }] }, "network or broadcast address"],
    [{ gateway: "10.20.0.50" }, "gateway 10.20.0.50 is inside a pool"],
    [{ gateway: "10.21.0.1" }, "gateway (10.21.0.1) is not an address inside 10.20.0.0/24"],
    [{ nameservers: ["dns.example"] }, "nameservers[0] (dns.example) is not an IPv4 or IPv6 address"],
    [{ ranges: [{ kind: "pool" as const, start: "2001:db8::1", end: "2001:db8::2" }] }, "is not an address inside 10.20.0.0/24"],
  ])("refuses %j: %s", (change, message) => {
    expect(() => checkSubnet(fields(aSubnet("s", change)), [])).toThrow(message);
  });

  it("refuses a CIDR that shares an address with another subnet of the site", () => {
    expect(() => checkSubnet(fields(aSubnet("s", { cidr: "10.20.0.128/25", ranges: [], gateway: undefined })), [aSubnet("other")])).toThrow(
      "cidr 10.20.0.128/25 overlaps subnet other (10.20.0.0/24) of the same site",
    );
  });

  it("says why an address cannot be given by hand", () => {
    const subnet = aSubnet("s", { ranges: [...aSubnet("s").ranges, { kind: "reserved", start: "10.20.0.2", end: "10.20.0.9" }] });
    expect(unassignable(subnet, "10.20.0.50")).toBeUndefined();
    expect(unassignable(subnet, "10.20.0.250")).toBeUndefined();
    expect(unassignable(subnet, "10.20.0.150")).toBe("10.20.0.150 is in the boot range the site's DHCP hands out");
    expect(unassignable(subnet, "10.20.0.5")).toBe("10.20.0.5 is reserved");
    expect(unassignable(subnet, "10.20.0.1")).toBe("10.20.0.1 is 10.20.0.0/24's gateway");
    expect(unassignable(subnet, "10.20.0.255")).toBe("10.20.0.255 is 10.20.0.0/24's network or broadcast address");
    expect(unassignable(subnet, "10.21.0.5")).toBe("10.21.0.5 is not an IPv4 address inside 10.20.0.0/24");
    expect(unassignable(subnet, "fe80::1")).toBe("fe80::1 is not an IPv4 address inside 10.20.0.0/24");
  });
});
