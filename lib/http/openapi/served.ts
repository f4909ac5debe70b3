import { settings } from "../../config/settings";
import { requestBaseUrl } from "../baseUrl";
import type { HttpEvent, HttpResult } from "../event";
import { text } from "../responses";

/**
 * A service's document as served: its server URLs are where this request reached it (stage prefix
 * included); with an identity provider (OIDC_ISSUER), its JWTs are declared as a way in
 * (`openIdConnect`, its discovery document) on every route that takes a Basic user.
 */
export function servedDocument(
  document: Record<string, unknown>,
  event: HttpEvent,
  service: "tasks" | "provisioning",
): Record<string, unknown> {
  const config = settings();
  const servers =
    service === "tasks"
      ? [`${requestBaseUrl(event, "/todo/api/v1.0", config.publicBaseUrl)}/todo/api/v1.0`]
      : ["1.1", "current", "common"].map((version) => `${requestBaseUrl(event, "/api/", config.apiServer)}/api/${version}`);
  const served = { ...document, servers: servers.map((url) => ({ url })) };
  return config.oidc ? withProvider(served, config.oidc.issuer) : served;
}

type Operation = { security?: Record<string, unknown>[] };

/** The document with the provider's scheme beside Basic wherever Basic is a way in. */
function withProvider(document: Record<string, unknown>, issuer: string): Record<string, unknown> {
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const withOidc = Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, op]) => [
          method,
          op.security?.some((way) => "basicAuth" in way) ? { ...op, security: [...op.security, { oidc: [] }] } : op,
        ]),
      ),
    ]),
  );
  const components = document.components as { securitySchemes: Record<string, unknown> };
  return {
    ...document,
    paths: withOidc,
    components: {
      ...components,
      securitySchemes: {
        ...components.securitySchemes,
        oidc: {
          type: "openIdConnect",
          openIdConnectUrl: `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
          description: "The identity provider's access token for this service: `Authorization: Bearer <jwt>` (docs/team.md)",
        },
      },
    },
  };
}

/**
 * What the docs page may load: only this service (Redoc styles itself inline and runs its search
 * in a blob worker). It also keeps the page from fetching Redoc's logo from Redocly's CDN.
 */
const DOCS_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src blob:; connect-src 'self'";

/** The docs page: Redoc, loaded from this service (docs/redoc.js), renders openapi.json; nothing comes from elsewhere. */
export const docsPage = (title: string): HttpResult => {
  const answer = text(
    200,
    [
      "<!doctype html>",
      '<html lang="en">',
      "<head>",
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${title}</title>`,
      "</head>",
      "<body>",
      // Relative URLs: right under any stage prefix or custom domain base path.
      '<redoc spec-url="openapi.json" hide-download-button="false"></redoc>',
      '<script src="docs/redoc.js"></script>',
      "</body>",
      "</html>",
      "",
    ].join("\n"),
    "text/html; charset=utf-8",
  );
  answer.headers["content-security-policy"] = DOCS_POLICY;
  return answer;
};

/** Redoc's standalone bundle (bundled as text, see deploy/esbuildPlugins.js), cached by browsers for a day. */
export const viewerScript = (script: string): HttpResult => {
  const answer = text(200, script, "text/javascript; charset=utf-8");
  answer.headers["cache-control"] = "public, max-age=86400";
  return answer;
};
