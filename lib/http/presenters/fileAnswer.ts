import { downloadFile, type FileStores } from "../../provisioning/files/fileService";
import type { HttpResult } from "../event";
import { bytes, json, redirect } from "../responses";

/** RackHD's 404 for every file route. */
export const fileNotFound = (): HttpResult => json(404, { error: "File not found." });

/** A file's bytes, a redirect to them when they are large, or RackHD's 404. */
export async function fileAnswer(stores: FileStores, identifier: string, byName: boolean): Promise<HttpResult> {
  const download = await downloadFile(stores, identifier, new Date(), byName);
  if (!download) return fileNotFound();
  if ("location" in download) return redirect(302, download.location);
  return bytes(200, download.bytes);
}
