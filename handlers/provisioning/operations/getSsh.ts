import { endpoint } from "../../../lib/http/endpoint";
import { noContent, ok } from "../../../lib/http/responses";
import { getNodeSsh } from "../../../lib/http/routes/operations";
import { nodeSshSettings } from "../../../lib/provisioning/nodes/sshService";
import { redact } from "../../../lib/provisioning/secrets";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNodeSsh, async ({ params }) => {
  const ssh = await nodeSshSettings(await provisioningStores(), params.identifier);
  return ssh ? ok(redact(ssh)) : noContent();
});
