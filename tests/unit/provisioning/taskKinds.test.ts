import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ENGINE = join(__dirname, "../../../lib/provisioning/workflowEngine");

describe("the workflow engine and the task kinds given to its orchestration (issue 51)", () => {
  it("fails by name, before any task runs, where the composition forgot the service task kinds", () => {
    jest.isolateModules(() => {
      const { taskKinds } = require("../../../lib/provisioning/workflows/taskKinds");
      expect(() => taskKinds()).toThrow(
        "The workflow orchestration has no service task kinds (effect, relay): give SERVICE_TASK_KINDS (lib/provisioning/serviceTasks.ts) where the stores are composed, as provisioningStores() does (lib/store/compositionRoot.ts)",
      );
    });
  });

  it("has them given by the stores' composition root: discovery's effects and the relay's BMC actions", () => {
    jest.isolateModules(() => {
      const { provisioningStores } = require("../../../lib/store/compositionRoot");
      void provisioningStores();
      const { taskKinds } = require("../../../lib/provisioning/workflows/taskKinds");
      const { performEffect } = require("../../../lib/provisioning/discovery/effects");
      const { relayTaskOutcomes } = require("../../../lib/provisioning/relays/relayTasks");
      expect(taskKinds()).toEqual({ effect: performEffect, relay: relayTaskOutcomes });
    });
  });

  it.each(readdirSync(ENGINE))("keeps the engine pure: %s reads no store and no clock", (file) => {
    const source = readFileSync(join(ENGINE, file), "utf8");
    expect(source).not.toMatch(/from "\.\.\/(ports|workflows)\/|Store\b|stores\b/);
    expect(source).not.toMatch(/new Date\(\)|Date\.now\(/);
  });
});
