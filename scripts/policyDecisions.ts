/**
 * The policy (lib/auth/policy.cedar) asked through Cedar itself (`@cedar-policy/cedar-wasm`, a
 * development dependency: no function carries its 4.3 MB of WebAssembly or its 150 ms start):
 * `npm run generate` writes every answer into lib/auth/decisions.generated.ts, and the role tests
 * ask Cedar again for every endpoint, role and site.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isAuthorized } from "@cedar-policy/cedar-wasm/nodejs";
import { ROLES, type Role } from "../lib/auth/roles";
import type { Endpoint } from "../lib/http/routes/endpoint";

export const POLICY_FILE = join(__dirname, "../lib/auth/policy.cedar");

const uid = (type: string, id: string) => ({ type, id });

/** Cedar's answer for one grant of `role` (on every site, or on the resource's) asking for `entry`'s action. */
export function cedarPermits(
  entry: Pick<Endpoint, "function" | "permission" | "scope">,
  role: Role,
  everySite: boolean,
  policy = readFileSync(POLICY_FILE, "utf8"),
): boolean {
  const answer = isAuthorized({
    principal: uid("Grant", "asking"),
    action: uid("Action", entry.function),
    resource: uid("Resource", entry.function),
    context: { everySite },
    policies: { staticPolicies: policy },
    entities: [
      { uid: uid("Role", "viewer"), attrs: {}, parents: [] },
      { uid: uid("Role", "operator"), attrs: {}, parents: [uid("Role", "viewer")] },
      { uid: uid("Role", "admin"), attrs: {}, parents: [uid("Role", "operator")] },
      { uid: uid("Grant", "asking"), attrs: {}, parents: [uid("Role", role)] },
      { uid: uid("Action", entry.function), attrs: {}, parents: [uid("Action", entry.permission)] },
      { uid: uid("Resource", entry.function), attrs: { scope: entry.scope }, parents: [] },
    ],
  });
  if (answer.type !== "success") throw new Error(`Cedar could not decide ${entry.function}: ${JSON.stringify(answer.errors)}`);
  if (answer.response.diagnostics.errors.length > 0)
    throw new Error(`the policy failed on ${entry.function}: ${JSON.stringify(answer.response.diagnostics.errors)}`);
  return answer.response.decision === "allow";
}

/** One action's answers, as the table keeps them: per role (viewer, operator, admin), on every site then on named sites, `1` permitted. */
export function decisionMask(entry: Pick<Endpoint, "function" | "permission" | "scope">, policy?: string): string {
  return ROLES.flatMap((role) => [true, false].map((every) => (cedarPermits(entry, role, every, policy) ? "1" : "0"))).join("");
}
