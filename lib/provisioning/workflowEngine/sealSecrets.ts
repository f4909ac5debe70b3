import { ValidationError } from "../../errors";
import { isPlainObject } from "../../json";
import { isSecretKey, REDACTED, redact } from "../secrets";
import { sha512Crypt } from "../sha512crypt";

/**
 * Install options carry passwords (rootPassword, users[].password). They are needed only as
 * SHA-512 crypt hashes in the kickstart, so the hashes are made when the workflow starts and the
 * plain passwords are never stored: every password key is left as "REDACTED".
 */
export function sealInstallSecrets(options: Record<string, unknown>): Record<string, unknown> {
  const sealed: Record<string, unknown> = { ...options };
  if (typeof options.rootPassword === "string") sealed.rootEncryptedPassword = sha512Crypt(options.rootPassword);
  if (options.users !== undefined && options.users !== null) {
    if (!Array.isArray(options.users)) throw new ValidationError("users must be an array");
    sealed.users = options.users.map((user, index) => {
      if (!isPlainObject(user) || typeof user.name !== "string" || typeof user.password !== "string") {
        throw new ValidationError(`users[${index}] needs a string name and a string password`);
      }
      if (user.uid !== undefined && typeof user.uid !== "number") throw new ValidationError(`users[${index}].uid must be a number`);
      return { ...user, encryptedPassword: sha512Crypt(user.password) };
    });
  }
  return redactPlainPasswords(sealed);
}

/** Every password-like value becomes "REDACTED", except the crypt hashes just made. */
function redactPlainPasswords(options: Record<string, unknown>): Record<string, unknown> {
  const { rootEncryptedPassword, users, ...rest } = options;
  const out = redact(rest);
  if (rootEncryptedPassword !== undefined) out.rootEncryptedPassword = rootEncryptedPassword;
  if (Array.isArray(users)) {
    out.users = users.map((user) => {
      if (!isPlainObject(user)) return user;
      const { encryptedPassword, ...fields } = user;
      return { ...redact(fields), ...(encryptedPassword !== undefined && { encryptedPassword }) };
    });
  } else if (users !== undefined) {
    out.users = users;
  }
  return out;
}

/**
 * The effect jobs that write a secret where it is needed rather than use it once: create-obm-settings
 * puts the BMC's password into the node's OBM setting, which the site's relay then uses.
 */
const KEEPS_SECRETS = new Set(["Job.Obm.Ipmi.CreateSettings"]);

/**
 * The plain secrets (top-level, as RackHD's tasks take them) an effect task needs to do its work,
 * kept apart from its redacted options and never answered; undefined for any other task.
 */
export function effectSecrets(runJob: string, options: Record<string, unknown>): Record<string, string> | undefined {
  if (!KEEPS_SECRETS.has(runJob)) return undefined;
  const secrets = Object.entries(options).filter(
    ([key, value]) => isSecretKey(key) && (typeof value === "string" || typeof value === "number") && value !== REDACTED,
  );
  return secrets.length > 0 ? Object.fromEntries(secrets.map(([key, value]) => [key, String(value)])) : undefined;
}
