/** MAC addresses in any common spelling: 08:00:27:27:EB:12, 08-00-27-27-eb-12, 080027.27eb12, 08002727eb12. */
const SEPARATED = /^([0-9a-f]{2})([:-])([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})$/i;
const BARE = /^[0-9a-f]{12}$/i;
const DOTTED = /^[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$/i;

/** The lowercase colon form of a MAC, or undefined when the text is not a MAC. */
export function normalizeMac(text: string): string | undefined {
  const value = text.trim();
  let hex: string;
  const separated = SEPARATED.exec(value);
  if (separated) hex = [1, 3, 4, 5, 6, 7].map((i) => separated[i]).join("");
  else if (BARE.test(value)) hex = value;
  else if (DOTTED.test(value)) hex = value.replace(/\./g, "");
  else return undefined;
  return hex.toLowerCase().match(/../g)!.join(":");
}

export const isMac = (text: string): boolean => normalizeMac(text) !== undefined;

/** A node identifier: MACs are normalised, anything else is kept as given. */
export const normalizeIdentifier = (identifier: string): string => normalizeMac(identifier) ?? identifier;
