import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { bootProfile, nodeTemplate } from "../../../../lib/provisioning/boot/bootService";
import { createNode } from "../../../../lib/provisioning/nodes/nodeService";
import { startWorkflow } from "../../../../lib/provisioning/workflows/workflowService";
import { later, type Stores, T0 } from "../services/setUp";

export const API = apiContextFor("http://svc.example");
export const MAC = "52:54:00:00:00:01";

/** A node a person power-cycles (the noop OBM service), as most of the lab's are. */
export const aMachine = (stores: Stores, name = "web-1", mac = MAC) =>
  createNode(stores, { name, type: "compute", identifiers: [mac], obmSettings: [{ service: "noop-obm-service", config: {} }] }, T0);

/** A node running Graph.InstallImage, its machine booted: the profile's credential and report URL from its kernel line. */
export async function bootedImageInstall(stores: Stores, options: Record<string, unknown> = {}) {
  const node = await aMachine(stores);
  const workflow = await startWorkflow(
    stores,
    node.id,
    { name: "Graph.InstallImage", options: { "install-os": { image: "debian-12.raw.gz", ...options } } },
    API,
    later(1),
  );
  const profile = await bootProfile(stores, [MAC], "10.0.0.5", API, later(2));
  const script = /INSTALL_SCRIPT=(\S+)/.exec(profile)?.[1];
  const installScript = await nodeTemplate(
    stores,
    "install-image.sh",
    { nodeId: node.id, macs: [], token: new URL(script!).searchParams.get("token") ?? undefined },
    "/api/current/templates/install-image.sh",
    API,
    later(3),
    { requireToken: true },
  );
  const reportUrl = /^REPORT_URL='([^']+)'/m.exec(installScript)![1];
  const credential = reportUrl.split("/").pop()!;
  return { node, workflow, profile, installScript, reportUrl, credential };
}

/** An event in cloud-init's webhook format. */
export const cloudInitEvent = (type: string, name: string, result?: string, description = `${type} ${name}`) => ({
  event_type: type,
  name,
  description,
  origin: "cloudinit",
  timestamp: 1764000000.25,
  ...(result && { result }),
});
