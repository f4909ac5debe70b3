import { ValidationError } from "../../errors";
import { isPlainObject } from "../../json";

/** A node's SSH settings (RackHD era C: `{host, user, password}` or a key pair); secrets never answered. */
export interface SshSettings {
  host: string;
  user: string;
  password?: string;
  privateKey?: string;
  publicKey?: string;
}

const text = (value: unknown): value is string => typeof value === "string" && value !== "";

/** POST /nodes/{id}/ssh: host, user and a password or a private key, all strings (else RackHD's 400). */
export function parseSshSettings(body: unknown): SshSettings {
  if (!isPlainObject(body) || !text(body.host) || !text(body.user) || !(text(body.password) || text(body.privateKey))) {
    throw new ValidationError("Invalid SSH body");
  }
  const { host, user, password, privateKey, publicKey } = body;
  if ([password, privateKey, publicKey].some((value) => value !== undefined && typeof value !== "string")) {
    throw new ValidationError("Invalid SSH body");
  }
  return {
    host,
    user,
    ...(text(password) && { password }),
    ...(text(privateKey) && { privateKey }),
    ...(text(publicKey) && { publicKey }),
  };
}
