/** A dotted IPv4 address, each part 0–255 (lookups' `ipAddress`, `?q=`, the `ip` and `ipv4` rules). */
export const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
