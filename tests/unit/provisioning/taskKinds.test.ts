import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performEffect } from "../../../lib/provisioning/discovery/effects";
import { relayTaskOutcomes } from "../../../lib/provisioning/relays/relayTasks";
import { taskKinds } from "../../../lib/provisioning/workflows/taskKinds";
import { provisioningStores } from "../../../lib/store/compositionRoot";

const ENGINE = join(__dirname, "../../../lib/provisioning/workflowEngine");

describe("the workflow engine and the task kinds given to its orchestration (issue 51)", () => {
  it("fails by name, before any task runs, where the composition forgot the service task kinds", () => {
    // A registry of its own, with nothing composed: only taskKinds.ts (type imports alone) loads in it.
    jest.isolateModules(() => {
      const { taskKinds } = require("../../../lib/provisioning/workflows/taskKinds");
      expect(() => taskKinds()).toThrow(
        "The workflow orchestration has no service task kinds (effect, relay): give SERVICE_TASK_KINDS (lib/provisioning/serviceTasks.ts) where the stores are composed, as provisioningStores() does (lib/store/compositionRoot.ts)",
      );
    });
  });

  // The composition root is imported with the file, not required inside the test: a module loaded in a
  // test counts as that test's coverage, and StrykerJS then judges every load-time mutant of the
  // whole domain by this one test alone (822 of them survived so on 2026-11-29) instead of ignoring
  // them as static (docs/development.md).
  it("has them given by the stores' composition root: discovery's effects and the relay's BMC actions", () => {
    void provisioningStores();
    expect(taskKinds()).toEqual({ effect: performEffect, relay: relayTaskOutcomes });
  });

  it.each(readdirSync(ENGINE))("keeps the engine pure: %s reads no store and no clock", (file) => {
    const source = readFileSync(join(ENGINE, file), "utf8");
    expect(source).not.toMatch(/from "\.\.\/(ports|workflows)\/|Store\b|stores\b/);
    expect(source).not.toMatch(/new Date\(\)|Date\.now\(/);
  });
});
