/**
 * The relay's version, sent with each lease request (the sites page shows it). 0.2.0 (issue 53):
 * Redfish BIOS and firmware jobs (`inventory`, `biosSettings`); a 0.1 relay refuses them as kinds
 * it does not know, and changes nothing. 0.3.0: virtual media (`virtualMedia`: a boot image built,
 * served and inserted through a Redfish BMC). 0.4.0 (issue 56): the push connection (a 0.3 relay
 * ignores the lease answer's `relay-push` header and polls as before).
 */
export const RELAY_VERSION = "0.4.0";
