import { createHmac } from "node:crypto";

/**
 * Standard Webhooks' headers (https://www.standardwebhooks.com): `webhook-id` (the event's id,
 * the same in every attempt, so a receiver drops repeats), `webhook-timestamp` (seconds), and
 * `webhook-signature`: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under each secret,
 * space-separated (two during a rotation). Our own signer, a dozen lines; the tests verify it with
 * the `standardwebhooks` package, the receivers' side.
 */
export function signedHeaders(id: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
    return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
  });
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}
