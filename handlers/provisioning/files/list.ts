import { endpoint } from "../../../lib/http/endpoint";
import { pagedAnswer } from "../../../lib/http/paging";
import { listFiles as route } from "../../../lib/http/provisioning/files/routes";
import { fileMetadata } from "../../../lib/provisioning/files/fileRecord";
import { listFiles } from "../../../lib/provisioning/files/fileService";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(route, async ({ event, query }) =>
  pagedAnswer(event, query, (await listFiles(await provisioningStores(), new Date())).map(fileMetadata), (page) => page),
);
