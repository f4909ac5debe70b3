import { hashPassword } from "../../lib/auth/passwordHash";
import { api, freshContainer } from "../support/api";
import { basic } from "../support/apiGatewayEvent";

/** Issue 35 §9 and issue 50 §7: password guessing is limited per (user name, source), per source and per user name, and answered 429 with Retry-After; no one can lock a user out. */
const NODES = "/api/1.1/nodes";
const tryAs = (user: string, password: string, sourceIp = "198.51.100.9") =>
  api({ method: "GET", path: NODES, headers: { authorization: basic(user, password) }, sourceIp });

beforeEach(() => {
  Object.assign(process.env, {
    DEMO_NODES: "off",
    PROVISIONING_AUTH: "on",
    AUTH_USERS: `ops:${hashPassword("Right-Pa55-word", { N: 1024, r: 8, p: 1 })}`,
  });
  freshContainer();
});

describe("failed sign-ins", () => {
  it("answers 429 with Retry-After after ten wrong passwords for a user from one address, even to the right password", async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await tryAs("ops", `guess-${attempt}`)).status).toBe(401);
    const held = await tryAs("ops", "guess-10");
    expect(held.status).toBe(429);
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(held.headers["retry-after"])).toBeLessThanOrEqual(300);
    expect(held.body.message).toMatch(/Too many failed sign-ins/);
    expect((await tryAs("ops", "Right-Pa55-word")).status).toBe(429);
    // Its owner, from an address that has not failed, still signs in (issue 50: anyone could lock a user out).
    expect((await tryAs("ops", "Right-Pa55-word", "192.0.2.44")).status).toBe(200);
  });

  it("cannot lock a user out from ten addresses: it slows the guessing addresses and lets the owner in (issue 50)", async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await tryAs("ops", "wrong", `203.0.113.${attempt}`)).status).toBe(401);
    // Each guessing address is now held for this user name (one guess each a window), the owner's is not.
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await tryAs("ops", "wrong", `203.0.113.${attempt}`)).status).toBe(429);
    expect((await tryAs("ops", "Right-Pa55-word", "192.0.2.44")).status).toBe(200);
    // A new guessing address gets its one guess, then is held too.
    expect((await tryAs("ops", "wrong", "203.0.113.200")).status).toBe(401);
    expect((await tryAs("ops", "Right-Pa55-word", "203.0.113.200")).status).toBe(429);
  });

  it("holds a source that guesses many user names, and no one else", async () => {
    for (let attempt = 0; attempt < 30; attempt += 1) expect((await tryAs(`user-${attempt}`, "x", "198.51.100.66")).status).toBe(401);
    expect((await tryAs("someone-else", "x", "198.51.100.66")).status).toBe(429);
    expect((await tryAs("ops", "Right-Pa55-word", "198.51.100.66")).status).toBe(429);
    expect((await tryAs("ops", "Right-Pa55-word", "198.51.100.67")).status).toBe(200);
  });

  it("does not count a request that gives no credentials (a client's first request, answered with the challenge)", async () => {
    for (let attempt = 0; attempt < 15; attempt += 1)
      expect((await api({ method: "GET", path: NODES, headers: {}, sourceIp: "198.51.100.9" })).status).toBe(401);
    expect((await tryAs("ops", "Right-Pa55-word")).status).toBe(200);
  });
});
