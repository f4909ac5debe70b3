import { apiTokenStore, noteSignIn, PROVIDER_SIGN_IN_DAYS } from "../../../lib/auth/apiTokens";
import { readSettings } from "../../../lib/config/settings";
import { ownerGrants } from "../../../lib/http/middleware/basicAuth";
import { composeOperatorStores } from "../../../lib/store/compositionRoot";

composeOperatorStores();

/** What a token's owner holds now, by where its name comes from: the tokens of one who is gone hold nothing. */
describe("a token's owner's grants now", () => {
  const NOW = new Date("2026-12-01T10:00:00.000Z");
  const env = { AUTH_USERS: "alice:pw-1", AUTH_ROLES: "alice=viewer@A,group:ops=operator,oidc:carol@example.com=admin@B" };
  const withProvider = readSettings({ ...env, OIDC_ISSUER: "https://idp.example.com", OIDC_AUDIENCE: "urn:rackhd:api" });
  const users = withProvider.authUsers;

  it("are a listed Basic user's by AUTH_ROLES as it is now, and nothing for one no longer listed", async () => {
    expect(await ownerGrants(withProvider, users, "alice", NOW)).toEqual([{ role: "viewer", sites: ["A"] }]);
    expect(await ownerGrants(withProvider, users, "bob", NOW)).toEqual([]);
  });

  it("are a provider caller's by its last sign-in's groups and AUTH_ROLES now, within PROVIDER_SIGN_IN_DAYS; nothing without a provider", async () => {
    await noteSignIn(apiTokenStore(), { name: "oidc:carol@example.com", grants: [], groups: ["ops"] }, NOW);
    const later = (days: number) => new Date(NOW.getTime() + days * 86_400_000);
    expect(await ownerGrants(withProvider, users, "oidc:carol@example.com", later(1))).toEqual([
      { role: "admin", sites: ["B"] },
      { role: "operator", sites: "*" },
    ]);
    expect(await ownerGrants(withProvider, users, "oidc:carol@example.com", later(PROVIDER_SIGN_IN_DAYS))).toEqual([]);
    expect(await ownerGrants(withProvider, users, "client:never-seen", NOW)).toEqual([]);
    expect(await ownerGrants(readSettings(env), users, "oidc:carol@example.com", later(1))).toEqual([]);
  });
});
