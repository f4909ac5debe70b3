/**
 * Puts a file into the service's file store the way any client of RackHD's file API can: announce
 * its size (`PUT …/files/{name}?size=`, no body), then PUT the bytes where the 307 says: a
 * presigned URL of the bucket (DynamoDB stage) or the same route again (memory store). Credentials
 * go only to the service, never to the bucket (a presigned URL carries its own).
 */
export interface PublishTarget {
  /** The service's base URL, e.g. http://localhost:3000 (any stage prefix included). */
  api: string;
  /** Basic credentials for PROVISIONING_AUTH=on, as "user:password". */
  credentials?: string;
}

export interface PublishedFile {
  name: string;
  uuid: string;
  bytes: number;
}

export async function publishFile(target: PublishTarget, name: string, bytes: Buffer): Promise<PublishedFile> {
  const route = `${target.api.replace(/\/$/, "")}/api/1.1/files/${encodeURIComponent(name)}`;
  const headersFor = (url: string): Record<string, string> => {
    const toService = new URL(url).origin === new URL(route).origin;
    return toService && target.credentials ? { authorization: `Basic ${Buffer.from(target.credentials).toString("base64")}` } : {};
  };
  const announce = await sendAgainIfClosed(`${route}?size=${bytes.byteLength}`, {
    method: "PUT",
    headers: headersFor(route),
    redirect: "manual",
  });
  const location = announce.headers.get("location");
  if (announce.status !== 307 || !location) throw new Error(`PUT ${route}?size= answered ${announce.status}: ${await announce.text()}`);
  const announced = (await announce.json().catch(() => ({}))) as { uuid?: string };
  const upload = await sendAgainIfClosed(location, {
    method: "PUT",
    headers: { ...headersFor(location), "content-type": "application/octet-stream" },
    body: bytes,
  });
  const answer = await upload.text();
  if (!upload.ok) throw new Error(`PUT ${new URL(location).origin}… answered ${upload.status}: ${answer}`);
  // The service answers the uuid as text (201); a bucket answers nothing useful, and the 307 had it.
  const uuid = upload.status === 201 ? answer : announced.uuid;
  if (!uuid) throw new Error(`Stored ${name}, but no uuid came back`);
  return { name, uuid, bytes: bytes.byteLength };
}

/**
 * A request sent on a kept-alive connection just as the server closes it for idleness fails with
 * no answer at all ("other side closed": seen when this process's event loop had been blocked for
 * seconds, so it could not drop the connection in time). Both requests here are idempotent PUTs, so,
 * as Go's http.Transport does for such a request, it is sent once more, on a new connection.
 */
async function sendAgainIfClosed(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (!closedUnanswered(error)) throw error;
    return fetch(url, init);
  }
}

function closedUnanswered(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code === "UND_ERR_SOCKET" || code === "ECONNRESET";
}
