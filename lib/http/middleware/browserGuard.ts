import type middy from "@middy/core";
import { type Settings, settings } from "../../config/settings";
import { ForbiddenError, ValidationError } from "../../errors";
import { type HttpEvent, type HttpResult, header } from "../event";

/**
 * What a browser must not be made to do on an operator's behalf. A browser attaches the
 * credentials it holds (a Basic sign-in it once answered, the console's cookie) to a request any
 * page sends; a page on another origin cannot read the answer, but a change would be made. Such a
 * page's change comes with its own `Origin` (every browser sends one with a POST, and with any
 * request a script makes across origins) or `Sec-Fetch-Site: cross-site`; and without a preflight
 * (which CORS then refuses) it can send only a form's content types. RackHD's clients, the relay
 * and machines send neither.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** The content types a page can send across origins without a preflight (the Fetch standard's CORS-safelisted ones). */
export const FORM_TYPES: ReadonlySet<string> = new Set(["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]);

/** The request's Origin is the host it was sent to. */
export function sameOrigin(event: HttpEvent): boolean {
  const origin = header(event, "origin");
  if (!origin) return false;
  try {
    return new URL(origin).host === (header(event, "host") ?? event.requestContext?.domainName);
  } catch {
    return false;
  }
}

/**
 * Why the request comes from another origin's page, or undefined: an `Origin` that is neither the
 * service's own nor one CORS_ORIGINS lists by name (`*` trusts no page with a change), or, with no
 * Origin, `Sec-Fetch-Site: cross-site`.
 */
export function foreignOrigin(event: HttpEvent, allowed: Settings["corsOrigins"]): string | undefined {
  const origin = header(event, "origin");
  if (origin !== undefined) {
    if (sameOrigin(event) || (allowed !== "*" && allowed.includes(origin))) return undefined;
    return `Origin ${origin.slice(0, 100)}`;
  }
  return header(event, "sec-fetch-site")?.trim().toLowerCase() === "cross-site" ? "Sec-Fetch-Site: cross-site" : undefined;
}

/** The media type of the request's body (`text/plain; charset=utf-8` is `text/plain`), lower case. */
export const mediaType = (event: HttpEvent): string | undefined => header(event, "content-type")?.split(";")[0].trim().toLowerCase();

/**
 * Refuses a change from another origin's page (403) before credentials are read: a refused request
 * changes nothing.
 */
export function browserGuard(): middy.MiddlewareObj<HttpEvent, HttpResult> {
  return {
    before: (request) => {
      const { event } = request;
      if (SAFE_METHODS.has(event.requestContext?.http?.method ?? "GET")) return;
      const foreign = foreignOrigin(event, settings().corsOrigins);
      if (foreign) throw new ForbiddenError(`A change from another site's page is refused (${foreign})`);
    },
  };
}

/**
 * Refuses a change sent in a form's content type to a route whose body is JSON or none (400, as a
 * JSON route answers any other type: the Flask tutorial's and RackHD's contract). A route whose body
 * is required refuses it when it reads the body (lib/http/middleware/jsonBody.ts); this covers the
 * routes whose body may be absent, which a page could otherwise reach with an empty form.
 */
export function refuseFormBody(event: HttpEvent): void {
  if (SAFE_METHODS.has(event.requestContext?.http?.method ?? "GET")) return;
  const type = mediaType(event);
  if (type !== undefined && FORM_TYPES.has(type)) throw new ValidationError("Content-Type must be application/json");
}
