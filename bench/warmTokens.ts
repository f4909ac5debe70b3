import { call, deferred, type Handlers, measuring } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const A = "/api/1.1";
const R = "/api/{version}";
const v = { version: "1.1" };

/** The audit trail's first page, and API tokens (issue 55): made, listed and revoked; each one made is revoked before the next, so the store stays one token big. */
export async function tokenCases(h: Handlers) {
  const make = () =>
    call(
      h.createToken,
      {
        method: "POST",
        path: `${A}/tokens`,
        route: `${R}/tokens`,
        pathParameters: v,
        headers: JSON_TYPE,
        body: '{"name":"bench","role":"operator","expiresInDays":1}',
      },
      201,
    )();
  const revoke = (id: string) =>
    call(h.revokeToken, { method: "DELETE", path: `${A}/tokens/${id}`, route: `${R}/tokens/{id}`, pathParameters: { ...v, id } }, 204);
  const idOf = (answer: { body?: string }) => JSON.parse(answer.body ?? "{}").id as string;
  let made = idOf(await make());
  // tinybench calls a case once to see whether it is async, before any beforeEach: a token of its own to revoke then.
  let revoking = revoke(idOf(await make()));
  return [
    {
      name: "POST /tokens",
      beforeEach: async () => {
        await revoke(made)();
      },
      run: measuring(h.createToken, async () => {
        const answer = await make();
        made = idOf(answer);
        return answer;
      }),
    },
    {
      name: "POST /login (RackHD: a Basic user's token for a day)",
      run: call(
        h.login,
        {
          method: "POST",
          path: "/login",
          route: "/login",
          headers: JSON_TYPE,
          body: '{"username":"bench","password":"bench-login-password"}',
        },
        200,
      ),
    },
    { name: "GET /audit", run: call(h.readAudit, { method: "GET", path: `${A}/audit`, route: `${R}/audit`, pathParameters: v }, 200) },
    {
      name: "GET /users (RackHD 2.0)",
      run: call(h.listUsers, { method: "GET", path: "/api/2.0/users", route: `${R}/users`, pathParameters: { version: "2.0" } }, 200),
    },
    {
      name: "GET /users/{name} (RackHD 2.0)",
      run: call(
        h.getUser,
        { method: "GET", path: "/api/2.0/users/bench", route: `${R}/users/{name}`, pathParameters: { version: "2.0", name: "bench" } },
        200,
      ),
    },
    { name: "GET /tokens", run: call(h.listTokens, { method: "GET", path: `${A}/tokens`, route: `${R}/tokens`, pathParameters: v }, 200) },
    {
      name: "DELETE /tokens/{id} (a token made for it)",
      beforeEach: async () => {
        revoking = revoke(idOf(await make()));
      },
      run: deferred(() => revoking),
    },
  ];
}
