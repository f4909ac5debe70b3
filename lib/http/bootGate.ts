import type { RelayIdentity } from "../provisioning/relays/site";
import { type HttpEvent, header } from "./event";

/**
 * The boot routes' gate (issue 24 §7): the relay that forwarded a booting machine's request, or
 * undefined when none did and none has to. Under BOOT_VIA_RELAY=on it refuses (401) a request that
 * no site's relay forwarded. The composition root gives it the store.
 */
export type BootGate = (authorization: string | undefined) => Promise<RelayIdentity | undefined>;

const forwardedBy = new WeakMap<object, RelayIdentity>();

/** The relay that forwarded this request, once the gate let it through. */
export const relayOf = (event: HttpEvent): RelayIdentity | undefined => forwardedBy.get(event);

/**
 * Runs the gate. A request a relay forwarded is the machine's: its address is the one the relay
 * saw (X-Forwarded-For, trusted from a relay only), which lookups record.
 */
export async function passBootGate(gate: BootGate, event: HttpEvent): Promise<void> {
  const relay = await gate(header(event, "authorization"));
  if (!relay) return;
  forwardedBy.set(event, relay);
  const machine = header(event, "x-forwarded-for")?.split(",")[0].trim();
  if (machine && /^[\d.]{7,15}$|^[\da-f:]{2,39}$/i.test(machine) && event.requestContext?.http)
    event.requestContext.http.sourceIp = machine;
}

/** The relay's own URL as its machines reach it (X-Relay-Base), for the scripts rendered for them. */
export function relayBase(event: HttpEvent): string | undefined {
  if (!relayOf(event)) return undefined;
  const base = header(event, "x-relay-base");
  if (!base) return undefined;
  try {
    const url = new URL(base);
    return url.protocol === "http:" || url.protocol === "https:" ? base.replace(/\/$/, "") : undefined;
  } catch {
    return undefined;
  }
}
