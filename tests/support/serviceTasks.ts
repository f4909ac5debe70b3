/**
 * The unit and contract tiers compose the stores themselves, not through lib/store/compositionRoot.ts:
 * they give the workflow orchestration its service task kinds as that root does. The handler tier
 * does not load this file, so a root that forgot them fails there.
 */
import { SERVICE_TASK_KINDS } from "../../lib/provisioning/serviceTasks";
import { giveTaskKinds } from "../../lib/provisioning/workflows/taskKinds";

giveTaskKinds(SERVICE_TASK_KINDS);
