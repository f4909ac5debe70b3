import { endpoint } from "../../../lib/http/endpoint";
import { pollerLibraryEntry } from "../../../lib/http/provisioning/pollers/routes";
import { noContent, ok } from "../../../lib/http/responses";
import { pollerLibraryEntry as entry } from "../../../lib/provisioning/pollers/pollerService";

export const handler = endpoint(pollerLibraryEntry, async ({ params }) => {
  const found = entry(params.name);
  return found ? ok(found) : noContent();
});
