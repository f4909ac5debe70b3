export interface BasicCredentials {
  user: string;
  password: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Parses an `Authorization: Basic <base64(user:password)>` header. Only the Basic scheme is
 * accepted (the Flask reference accepted any scheme name: a quirk we do not copy), the base64
 * must be strict, and the decoded text must hold a colon after a non-empty user name.
 */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*basic\s+(\S+)\s*$/i.exec(header);
  if (!match) return undefined;
  const encoded = match[1];
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 1) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * The token of an `Authorization: Bearer <token>` header, whatever its kind (an API token, a
 * provider's JWT); RackHD's `Authorization: JWT <token>` (its `/login` token) is read the same.
 */
export function parseBearer(header: string | undefined): string | undefined {
  return /^\s*(?:bearer|jwt)\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
}
