import { type HttpEvent, header } from "./event";

/** Host names serverless-offline puts in requestContext that are not real hosts. */
const PLACEHOLDER_DOMAIN = /^offlineContext_|^localhost$/;

/**
 * The externally visible URL of the API root that `serviceRoot` (e.g. "/todo/api/v1.0") sits
 * under, without a trailing slash: scheme and host as the client used them, plus any prefix in
 * front of the service root in the raw path (an API Gateway stage such as /prod, or a custom
 * domain's base path). A configured base URL, when given, is used as is.
 */
export function requestBaseUrl(event: HttpEvent, serviceRoot: string, configured?: string): string {
  if (configured !== undefined) return configured;
  const proto = (header(event, "x-forwarded-proto") ?? "http").split(",")[0].trim().toLowerCase();
  const scheme = proto === "https" ? "https" : "http";
  const domain = event.requestContext?.domainName;
  const host = domain && !PLACEHOLDER_DOMAIN.test(domain) ? domain : (header(event, "host") ?? "localhost");
  const rawPath = event.rawPath ?? "";
  const at = rawPath.indexOf(serviceRoot);
  const prefix = at > 0 ? rawPath.slice(0, at) : "";
  return `${scheme}://${host}${prefix}`;
}
