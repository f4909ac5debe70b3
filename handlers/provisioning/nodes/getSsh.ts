import { endpoint } from "../../../lib/http/endpoint";
import { getNodeSsh } from "../../../lib/http/provisioning/nodes/routes";
import { noContent, ok } from "../../../lib/http/responses";
import { nodeSshSettings } from "../../../lib/provisioning/nodes/sshService";
import { redact } from "../../../lib/provisioning/secrets";
import { provisioningStores } from "../../../lib/store/compositionRoot";

export const handler = endpoint(getNodeSsh, async ({ params }) => {
  const ssh = await nodeSshSettings(await provisioningStores(), params.identifier);
  return ssh ? ok(redact(ssh)) : noContent();
});
