/**
 * The console's session cookies: the session (an opaque token of the service's, HttpOnly, which the
 * operators' API takes as it takes an API token, and signing out ends); and the one carrying a sign-in's state to its
 * callback. Apart from lib/auth/consoleSignIn.ts so that every function's middleware reads the
 * cookie without bundling the sign-in's client library.
 */
export const SESSION_COOKIE = "rhd_session";
export const SIGN_IN_COOKIE = "rhd_signin";

/** A cookie's attributes: HttpOnly always; Secure over https; SameSite as asked; under the service's path prefix. */
export function cookie(
  name: string,
  value: string,
  options: { path: string; maxAge: number; secure: boolean; sameSite: "Strict" | "Lax" },
): string {
  return [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAge}`,
    "HttpOnly",
    `SameSite=${options.sameSite}`,
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}

/** A cookie's value from a Cookie header (or API Gateway v2's `cookies` list). */
export function cookieValue(cookies: readonly string[] | undefined, name: string): string | undefined {
  for (const part of (cookies ?? []).flatMap((each) => each.split(";"))) {
    const equals = part.indexOf("=");
    if (equals > 0 && part.slice(0, equals).trim() === name) return part.slice(equals + 1).trim();
  }
  return undefined;
}

/** The cookie that ends the session. */
export function endSession(root: string, secure: boolean): string {
  return cookie(SESSION_COOKIE, "", { path: root || "/", maxAge: 0, secure, sameSite: "Strict" });
}

/** The session cookie's token in a request: API Gateway's `cookies` (payload 2.0) or a Cookie header. */
export function sessionToken(event: { cookies?: string[]; headers?: Record<string, string | undefined> }): string | undefined {
  const headers = event.headers ?? {};
  // Header names in any case, as lib/http/event.ts header() reads them.
  const cookie = Object.entries(headers).find(([name]) => name.toLowerCase() === "cookie")?.[1];
  return cookieValue([...(event.cookies ?? []), ...(cookie ? [cookie] : [])], SESSION_COOKIE) || undefined;
}
