import { parseBasicAuth } from "../auth/basicAuth";
import { type HttpEvent, header } from "./event";

/** Who made a request, for an audit record: the Basic user (checked by then), else who could. */
export function requester(event: HttpEvent): string {
  const user = parseBasicAuth(header(event, "authorization"))?.user;
  return user ? `user ${user}` : "anyone (PROVISIONING_AUTH off)";
}
