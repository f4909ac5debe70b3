import type middy from "@middy/core";
import { type AuditRecord, auditTrail, newAuditId } from "../../audit/auditTrail";
import { bearerToken, tokenIdOf } from "../../auth/apiTokens";
import { parseBasicAuth, parseBearer } from "../../auth/basicAuth";
import { claimedSubject, looksLikeJwt } from "../../auth/oidc";
import { currentInvocation } from "../../invocation";
import { logLine } from "../../logger";
import { type HttpEvent, type HttpResult, header } from "../event";
import { claimedNameOf, verifiedCallerOf } from "../principal";
import type { SiteScope } from "../routes/endpoint";

/** Answers that say the credentials or the role did not do: recorded for a read too. */
const REFUSED = new Set([401, 403, 429]);

/** Who a request was from: its verified caller, else the name its credentials claimed (a token by its id), else anonymous. */
function actorOf(event: HttpEvent): Pick<AuditRecord, "actor" | "verified" | "token"> {
  const caller = verifiedCallerOf(event);
  if (caller) return { actor: caller.name, verified: true, ...(caller.token && { token: caller.token }) };
  const named = claimedNameOf(event);
  if (named !== undefined) return { actor: named, verified: false };
  const authorization = header(event, "authorization");
  const token = bearerToken(authorization);
  if (token) return { actor: "anonymous", verified: false, token: tokenIdOf(token) };
  // A provider's token that did not do: the subject it claims, marked unverified.
  const jwt = parseBearer(authorization);
  if (jwt && looksLikeJwt(jwt)) return { actor: claimedSubject(jwt).slice(0, 64), verified: false };
  const claimed = parseBasicAuth(authorization)?.user;
  return { actor: claimed === undefined ? "anonymous" : claimed.slice(0, 64), verified: false };
}

/**
 * Adds each answered request that changed something, or was refused for its credentials or its
 * role, to the audit trail (lib/audit/auditTrail.ts): who, which action on what, when, from where,
 * the status; never a body, a query string or a secret. A trail that cannot be written does not
 * change the answer (the change is made): it is logged as an error, with the record.
 */
export function auditing(action: string, scope?: SiteScope, every = false): middy.MiddlewareObj<HttpEvent, HttpResult> {
  const after = async (request: middy.Request<HttpEvent, HttpResult>): Promise<void> => {
    const status = request.response?.statusCode;
    const http = request.event.requestContext?.http;
    if (status === undefined || !http) return;
    if (!every && (http.method === "GET" || http.method === "HEAD") && !REFUSED.has(status)) return;
    const at = new Date();
    const fields = currentInvocation()?.fields ?? {};
    // A site's route is on the site its path names; any other on the site of the node it read.
    const site = scope === "site" ? request.event.pathParameters?.id?.slice(0, 64) : fields.siteId;
    const record: AuditRecord = {
      id: newAuditId(at),
      at: at.toISOString(),
      ...actorOf(request.event),
      action,
      method: http.method,
      path: request.event.rawPath.slice(0, 512),
      ...(fields.nodeId && { node: fields.nodeId }),
      ...(site && { site }),
      ...(http.sourceIp && { sourceIp: http.sourceIp }),
      status,
    };
    try {
      await auditTrail().add(record);
    } catch (error) {
      logLine({ level: "error", msg: "audit record not kept", record, error: (error as Error).message });
    }
  };
  return { after, onError: after };
}
