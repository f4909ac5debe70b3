import { ConflictError } from "../../errors";
import { catalogDisks, chooseDisk, describeDisks, parseDiskRule } from "../installDisk";
import type { Node } from "../nodes/node";
import type { StoresOf } from "../ports";
import { finishTask } from "../workflowEngine/progress";
import type { Workflow, WorkflowTask } from "../workflowEngine/workflow";

/**
 * An install task's options as its script renders them: an installDisk rule replaced by the
 * device it picks from the node's lshw catalog (installDisk.ts). When no disk matches, the task
 * fails at once with the reason `no-install-disk` and the disks the catalog lists, and the machine
 * is refused its script (409): an installer must never fall back to a disk the operator did not mean.
 *
 * The device name is the one the disk had at discovery, and Linux does not keep names across boots
 * (SATA ports probe in parallel: the lab's Secure Boot machine had its second disk as /dev/sda at
 * discovery and its first as /dev/sda at the install, and the image went to the wrong disk). So the
 * chosen disk's serial and size go with it (`_installDiskSerial`, `_installDiskSize`, never taken
 * from the operator's options), and the installer writes to the disk that has them, or to none.
 */
export async function optionsWithInstallDisk(
  stores: StoresOf<"catalogs" | "workflows">,
  node: Node,
  workflow: Workflow,
  task: WorkflowTask,
  now: Date,
): Promise<Record<string, unknown>> {
  const { _installDiskSerial, _installDiskSize, ...options } = task.options;
  const rule = parseDiskRule(options.installDisk, `task ${task.label}`);
  if (!rule) return options;
  const lshw = await stores.catalogs.latest(node.id, "lshw");
  const disks = catalogDisks(lshw?.data);
  const disk = chooseDisk(rule, disks);
  if (disk)
    return {
      ...options,
      installDisk: disk.logicalname,
      ...(disk.serial.trim() !== "" && { _installDiskSerial: disk.serial.trim(), _installDiskSize: disk.size }),
    };
  const error = lshw
    ? `No disk of node ${node.id} matches the installDisk rule ${JSON.stringify(rule)}; its lshw catalog lists ${describeDisks(disks)}`
    : `Node ${node.id} has no lshw catalog to choose its install disk by the rule ${JSON.stringify(rule)} (discover it first)`;
  await stores.workflows.update(workflow.instanceId, (stored) =>
    finishTask(stored, task.instanceId, { state: "failed", error, reason: "no-install-disk" }, node.obmSettings, now),
  );
  throw new ConflictError(error);
}
