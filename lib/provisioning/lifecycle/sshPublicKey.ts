import { ValidationError } from "../../errors";

/** The OpenSSH public key types a rescue accepts (what `ssh-keygen` makes today). */
const KEY_TYPES = new Set([
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
]);

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** A comment's characters: printable ASCII (it is written into authorized_keys, one line). */
const COMMENT = /^[\x20-\x7e]{0,256}$/;

/**
 * An OpenSSH public key line (`type base64 [comment]`), checked as sshd would read it: a known
 * type, a blob that is base64 and names that same type inside (its first field), a printable
 * comment. Answers the line as written into the rescue microkernel's authorized_keys. A private
 * key, two keys, options before the type (`command="…"`): a 400 that says which.
 */
export function parseSshPublicKey(line: string): string {
  const trimmed = line.trim();
  if (trimmed.includes("\n") || trimmed.includes("\r")) throw new ValidationError("options.sshKey must be one public key on one line");
  if (trimmed.startsWith("-----BEGIN")) throw new ValidationError("options.sshKey is a private key: give the public key (the .pub file)");
  const [type, blob, ...comment] = trimmed.split(" ");
  if (!KEY_TYPES.has(type)) {
    throw new ValidationError(`options.sshKey must start with its key type (${[...KEY_TYPES].join(", ")}), with no options before it`);
  }
  if (blob === undefined || !BASE64.test(blob)) throw new ValidationError("options.sshKey has no base64 key after its type");
  const bytes = Buffer.from(blob, "base64");
  const named = bytes.length >= 4 ? bytes.readUInt32BE(0) : -1;
  if (named !== type.length || bytes.subarray(4, 4 + named).toString("latin1") !== type) {
    throw new ValidationError(`options.sshKey's key is not a ${type} key (its blob names another type, or is cut short)`);
  }
  const text = comment.join(" ");
  if (!COMMENT.test(text)) throw new ValidationError("options.sshKey's comment must be printable ASCII, at most 256 characters");
  return text === "" ? `${type} ${blob}` : `${type} ${blob} ${text}`;
}
