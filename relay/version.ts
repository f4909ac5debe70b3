/** The relay's version, sent with each lease request (the sites page shows it). */
export const RELAY_VERSION = "0.1.0";
