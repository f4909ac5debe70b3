import { loginToken } from "../../../lib/auth/apiTokens";
import { attemptCounter, attemptKeys, isHeld, windowOf } from "../../../lib/auth/attemptLimiter";
import { settings } from "../../../lib/config/settings";
import { TooManyAttemptsError, ValidationError } from "../../../lib/errors";
import { endpoint } from "../../../lib/http/endpoint";
import { basicCaller, configuredUsers } from "../../../lib/http/middleware/basicAuth";
import { setCaller, setClaimedName } from "../../../lib/http/principal";
import { login } from "../../../lib/http/provisioning/login/routes";
import { json, ok } from "../../../lib/http/responses";
import { apiTokenStore } from "../../../lib/store/compositionRoot";

/** RackHD's answers: 400 "Missing credentials", 401 "Invalid username or password", else `{ token }`; failures count as failed sign-ins. */
export const handler = endpoint(login, async ({ event, readBody }) => {
  const { username, password } = await readBody();
  if (!username || !password) throw new ValidationError("Missing credentials");
  // Who it claims to be, for the audit trail if it is not let in.
  setClaimedName(event, username);
  const config = settings();
  const counter = attemptCounter();
  const keys = attemptKeys(username, event.requestContext?.http?.sourceIp);
  const now = new Date();
  const { window, left } = windowOf(now);
  if (isHeld(await counter.failures(keys, window)))
    throw new TooManyAttemptsError("Too many failed sign-ins for this user or from this address: try again later", left);
  if (!(await configuredUsers(config)).verify(username, password)) {
    await counter.fail(keys, window);
    // RackHD's words, and no Basic challenge: this is a form's answer, not a request for credentials.
    return json(401, { message: "Invalid username or password" });
  }
  const caller = basicCaller(config, username);
  // The sign-in goes to the audit trail under the user's name.
  setCaller(event, caller);
  return ok({ token: await loginToken(apiTokenStore(), caller, now) });
});
