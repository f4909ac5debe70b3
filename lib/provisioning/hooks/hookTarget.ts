import { isIP } from "node:net";
import { ValidationError } from "../../errors";

/**
 * Where a hook may post (issue 35 §7). A hook's URL is chosen by whoever holds the operators'
 * credentials, but its deliveries leave from the service's own network position: from a Lambda,
 * 169.254.169.254 and 169.254.170.2 answer with the function's own AWS credentials, and the VPC's
 * private ranges hold what the internet cannot reach. So, unless the stage allows private targets
 * (HOOK_PRIVATE_TARGETS=on, for hooks inside a site's VPC), a hook may only post to a public
 * address: checked on the URL when it is registered, and on every address its name resolves to
 * when it is delivered (a name may resolve anywhere later; the poster connects only to an address
 * it checked, and follows no redirect).
 */
export interface HookTargetPolicy {
  /** Loopback, link-local, private, shared, reserved and multicast addresses allowed (HOOK_PRIVATE_TARGETS=on). */
  privateTargets: boolean;
  /** Plain http allowed (HOOK_HTTP=on; a deployed stage takes https only by default). */
  http: boolean;
}

type Range = readonly [network: bigint, prefix: number, bits: 32 | 128, what: string];

const v4 = (text: string): bigint => text.split(".").reduce((sum, part) => (sum << 8n) | BigInt(Number(part)), 0n);

function v6(text: string): bigint {
  let address = text;
  // An embedded IPv4 tail (::ffff:127.0.0.1) as two groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail) {
    const n = v4(tail[1]);
    address = `${address.slice(0, -tail[1].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, rest] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = rest === undefined || rest === "" ? [] : rest.split(":");
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((sum, group) => (sum << 16n) | BigInt(Number.parseInt(group || "0", 16)), 0n);
}

/** The addresses a hook may not reach unless the stage allows private targets (IANA's special-purpose registries). */
const RANGES: readonly Range[] = [
  [v4("0.0.0.0"), 8, 32, "this network"],
  [v4("10.0.0.0"), 8, 32, "private"],
  [v4("100.64.0.0"), 10, 32, "shared (carrier-grade NAT)"],
  [v4("127.0.0.0"), 8, 32, "loopback"],
  [v4("169.254.0.0"), 16, 32, "link-local (the instance and container metadata services)"],
  [v4("172.16.0.0"), 12, 32, "private"],
  [v4("192.0.0.0"), 24, 32, "IETF protocol assignments"],
  [v4("192.0.2.0"), 24, 32, "documentation"],
  [v4("192.168.0.0"), 16, 32, "private"],
  [v4("198.18.0.0"), 15, 32, "benchmarking"],
  [v4("198.51.100.0"), 24, 32, "documentation"],
  [v4("203.0.113.0"), 24, 32, "documentation"],
  [v4("224.0.0.0"), 4, 32, "multicast"],
  [v4("240.0.0.0"), 4, 32, "reserved"],
  [v6("::"), 128, 128, "unspecified"],
  [v6("::1"), 128, 128, "loopback"],
  [v6("100::"), 64, 128, "discard"],
  [v6("2001:db8::"), 32, 128, "documentation"],
  [v6("fc00::"), 7, 128, "unique local (the instance metadata service's fd00:ec2::254)"],
  [v6("fe80::"), 10, 128, "link-local"],
  [v6("ff00::"), 8, 128, "multicast"],
];

const inRange = (value: bigint, [network, prefix, bits]: Range): boolean =>
  value >> BigInt(bits - prefix) === network >> BigInt(bits - prefix);

/**
 * Why an IP address is not a public one (undefined when it is). IPv4 inside IPv6 (mapped
 * `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) is judged as the IPv4 it carries.
 */
export function nonPublicAddress(ip: string): string | undefined {
  const family = isIP(ip);
  if (family === 4) return RANGES.find((range) => range[2] === 32 && inRange(v4(ip), range))?.[3];
  if (family !== 6) return "not an IP address";
  const value = v6(ip.toLowerCase().replace(/%.*$/, ""));
  const carried = value >> 32n;
  if (carried === 0xffffn || carried === 0n || carried === 0x64ff9b0000000000000000n) {
    const inner = value & 0xffffffffn;
    if (value !== 0n && value !== 1n)
      return nonPublicAddress([24n, 16n, 8n, 0n].map((shift) => String((inner >> shift) & 0xffn)).join("."));
  }
  return RANGES.find((range) => range[2] === 128 && inRange(value, range))?.[3];
}

/** A URL's host as an address or name: an IPv6 literal without its brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "");

/** Host names that always mean this machine or its own network. */
const LOCAL_NAME = /^(localhost|[^.]*\.localhost|[^.]*\.internal|metadata\.google\.internal)\.?$/i;

/**
 * The URL, if a hook may be registered with it under `policy`; 400 naming why otherwise. The
 * host is read as the WHATWG URL parser reads it, so `0x7f000001`, `2130706433` and `127.1` are
 * all 127.0.0.1, as a client would connect to them.
 */
export function checkHookTarget(url: URL, policy: HookTargetPolicy): void {
  if (url.protocol === "http:" && !policy.http)
    throw new ValidationError("url must be https: this stage does not post events over plain http (HOOK_HTTP)");
  if (policy.privateTargets) return;
  const host = hostOf(url);
  const why = isIP(host) ? nonPublicAddress(host) : LOCAL_NAME.test(host) ? "this machine's own name" : undefined;
  if (why) throw new ValidationError(`url must name a public address: ${url.hostname} is ${why} (HOOK_PRIVATE_TARGETS allows it)`);
}
