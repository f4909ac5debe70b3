import { DEMO_MACS } from "../lib/provisioning/demoNodes";
import { nodeIdForMac } from "../lib/provisioning/ids";
import { type Case, call, type Handler } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const A = "/api/1.1";
const R = "/api/{version}";
const v = { version: "1.1" };

/** Config, versions, SSH settings and OBM identify, on the second demo node (its OBM service is noop). */
export function operationsCases(h: Record<string, Handler>): Case[] {
  const node = nodeIdForMac(DEMO_MACS[1]);
  const onNode = (suffix: string) => ({
    path: `${A}/nodes/${node}${suffix}`,
    route: `${R}/nodes/{identifier}${suffix}`,
    pathParameters: { ...v, identifier: node },
  });
  const config = { path: `${A}/config`, route: `${R}/config`, pathParameters: v };
  return [
    { name: "GET /config", run: call(h.getConfig, { method: "GET", ...config }, 200) },
    {
      name: "PATCH /config",
      run: call(h.patchConfig, { method: "PATCH", ...config, headers: JSON_TYPE, body: '{"logColorEnable":true}' }, 200),
    },
    {
      name: "GET /versions",
      run: call(h.getVersions, { method: "GET", path: `${A}/versions`, route: `${R}/versions`, pathParameters: v }, 200),
    },
    {
      name: "POST /nodes/{id}/ssh",
      run: call(
        h.setNodeSsh,
        { method: "POST", ...onNode("/ssh"), headers: JSON_TYPE, body: '{"host":"10.1.1.5","user":"root","password":"pw"}' },
        201,
      ),
    },
    { name: "GET /nodes/{id}/ssh", run: call(h.getNodeSsh, { method: "GET", ...onNode("/ssh") }, 200) },
    {
      name: "POST /nodes/{id}/obm/identify",
      run: call(h.setNodeIdentify, { method: "POST", ...onNode("/obm/identify"), headers: JSON_TYPE, body: '{"value":true}' }, 200),
    },
    { name: "GET /nodes/{id}/obm/identify", run: call(h.getNodeIdentify, { method: "GET", ...onNode("/obm/identify") }, 200) },
  ];
}

/** The template and profile library: reads of a built-in, a put one, the lists. */
export function libraryCases(h: Record<string, Handler>): Case[] {
  const entry = (kind: "templates" | "profiles", name: string) => ({
    path: `${A}/${kind}/library/${name}`,
    route: `${R}/${kind}/library/{name}`,
    pathParameters: { ...v, name },
  });
  const list = (kind: "templates" | "profiles") => ({ path: `${A}/${kind}/library`, route: `${R}/${kind}/library`, pathParameters: v });
  const text = { "content-type": "text/plain" };
  return [
    { name: "GET /templates/library", run: call(h.templateLibrary, { method: "GET", ...list("templates") }, 200) },
    {
      name: "GET /templates/library/{name}",
      run: call(h.templateLibraryEntry, { method: "GET", ...entry("templates", "centos-ks") }, 200),
    },
    {
      name: "PUT /templates/library/{name}",
      run: call(h.putTemplate, { method: "PUT", ...entry("templates", "site-ks"), headers: text, body: "url --url=<%=repo%>" }, 200),
    },
    { name: "GET /profiles/library", run: call(h.profileLibrary, { method: "GET", ...list("profiles") }, 200) },
    { name: "GET /profiles/library/{name}", run: call(h.profileLibraryEntry, { method: "GET", ...entry("profiles", "linux.ipxe") }, 200) },
    {
      name: "PUT /profiles/library/{name}",
      run: call(h.putProfile, { method: "PUT", ...entry("profiles", "site.ipxe"), headers: text, body: "echo <%=nodeId%>" }, 200),
    },
  ];
}
