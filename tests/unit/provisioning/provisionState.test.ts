import fc from "fast-check";
import {
  ACTIONS,
  actionsFrom,
  begin,
  end,
  isTransitional,
  PROVISION_STATES,
  type ProvisionState,
  STABLE_STATES,
  stateOf,
  TRANSITIONAL_STATES,
  TRANSITIONS,
  transitionFrom,
  undo,
} from "../../../lib/provisioning/nodes/provisionState";

const T0 = new Date("2026-11-28T06:00:00.000Z");
const T1 = new Date("2026-11-28T06:05:00.000Z");
const anyState = fc.constantFrom(...PROVISION_STATES);
const anyAction = fc.constantFrom(...ACTIONS);

describe("provision states (issue 53)", () => {
  it("moves through a machine's whole life: discovered → ready → allocated → deployed → rescue → deployed → ready → retired", () => {
    const path: [string, ProvisionState][] = [
      ["provide", "ready"],
      ["allocate", "allocated"],
      ["deploy", "deployed"],
      ["rescue", "rescue"],
      ["unrescue", "deployed"],
      ["redeploy", "deployed"],
      ["release", "ready"],
      ["retire", "retired"],
      ["provide", "ready"],
    ];
    let state: ProvisionState = "discovered";
    for (const [action, to] of path) {
      const transition = transitionFrom(state, action as (typeof ACTIONS)[number]);
      expect(isTransitional(transition.during)).toBe(true);
      state = transition.to;
      expect(state).toBe(to);
    }
  });

  it("holds docs/lifecycle.md's table: each action's states, transitional state, end and whether it is destructive", () => {
    const table = Object.fromEntries(
      Object.entries(TRANSITIONS).map(([action, { from, during, to, destructive }]) => [
        action,
        `${from.join("|")} → ${during} → ${to}${destructive ? " !" : ""}`,
      ]),
    );
    expect(table).toEqual({
      provide: "discovered|failed|retired → providing → ready",
      allocate: "ready → allocating → allocated",
      deallocate: "allocated → deallocating → ready",
      deploy: "ready|allocated → deploying → deployed !",
      redeploy: "deployed → deploying → deployed !",
      release: "allocated|deployed|rescue|failed → releasing → ready !",
      rescue: "deployed|failed → rescuing → rescue",
      unrescue: "rescue → unrescuing → deployed",
      retire: "discovered|ready|failed → retiring → retired",
    });
    for (const { summary } of Object.values(TRANSITIONS)) expect(summary).toMatch(/^[A-Z].{20,}[^.]$/);
    expect(actionsFrom("failed")).toEqual(["provide", "release", "rescue", "retire"]);
    expect(() => transitionFrom("retired", "retire")).toThrow(/; from retired: provide$/);
    expect(() => transitionFrom("ready", "unrescue")).toThrow(/; from ready: allocate, deploy, retire$/);
  });

  it("refuses an action from a state it does not start from with a 409 naming both, and what the state allows", () => {
    expect(() => transitionFrom("discovered", "release")).toThrow(
      expect.objectContaining({
        kind: "conflict",
        message:
          "Action release is not allowed while the node is discovered: release starts from allocated, deployed, rescue, failed; from discovered: provide, retire",
      }),
    );
    expect(() => transitionFrom("releasing", "retire")).toThrow(
      "Action retire is not allowed while the node is releasing: retire starts from discovered, ready, failed; wait for the running action to end, or cancel its workflow",
    );
    expect(() => transitionFrom("rescue", "deploy")).toThrow(/from rescue: release, unrescue$/);
  });

  it("allows an action exactly from its `from` states, never from a transitional one, and always into a transitional one (property)", () => {
    fc.assert(
      fc.property(anyState, anyAction, (state, action) => {
        const allowed = (TRANSITIONS[action].from as readonly string[]).includes(state);
        expect(actionsFrom(state).includes(action)).toBe(allowed);
        if (allowed) {
          expect(transitionFrom(state, action).during).toBe(TRANSITIONS[action].during);
          expect(isTransitional(state)).toBe(false);
        } else {
          expect(() => transitionFrom(state, action)).toThrow(`Action ${action} is not allowed while the node is ${state}`);
        }
      }),
    );
    for (const state of TRANSITIONAL_STATES) expect(actionsFrom(state)).toEqual([]);
    for (const state of STABLE_STATES) expect(isTransitional(state)).toBe(false);
  });

  it("reads a node stored before states were, or with a state it does not know, as discovered", () => {
    expect(stateOf({})).toBe("discovered");
    expect(stateOf({ provisionState: "flying" })).toBe("discovered");
    expect(stateOf({ provisionState: 7 })).toBe("discovered");
    expect(stateOf({ provisionState: "rescue" })).toBe("rescue");
    expect(stateOf({ provisionState: "toString" })).toBe("discovered");
  });

  it("begins an action on the node as stored, clearing its last error, and refuses one the stored state does not allow", () => {
    const failed = {
      provisionState: "failed",
      provisioning: {
        updatedAt: T0.toISOString(),
        owner: "team-a",
        lastError: {
          action: "deploy" as const,
          workflowId: "w",
          task: "install-os",
          reason: "never-booted" as const,
          message: "m",
          at: "x",
        },
      },
    };
    expect(begin(failed, "release", "op-1", T1)).toEqual({
      provisionState: "releasing",
      provisioning: { owner: "team-a", action: "release", operation: "op-1", workflowId: undefined, updatedAt: T1.toISOString() },
    });
    expect(() => begin({ provisionState: "releasing" }, "release", "op-2", T1)).toThrow(/not allowed while the node is releasing/);
    expect(begin({ provisionState: "ready" }, "allocate", "op-3", T1, { owner: "o", purpose: "p" }).provisioning).toMatchObject({
      owner: "o",
      purpose: "p",
      action: "allocate",
    });
  });

  it("ends only the operation the node waits on: to the action's state, or failed with the step and reason; a second end changes nothing", () => {
    const releasing = begin(
      { provisionState: "deployed", provisioning: { updatedAt: "t", owner: "o", purpose: "p", deploy: { graph: "g", options: {} } } },
      "release",
      "op",
      T0,
    );
    const lifecycle = { action: "release", operation: "op" };
    const done = end(releasing, lifecycle, { status: "succeeded", workflowId: "w1" }, T1);
    expect(done).toEqual({
      provisionState: "ready",
      provisioning: { action: "release", operation: "op", workflowId: "w1", updatedAt: T1.toISOString() },
    });
    expect(end(done!, lifecycle, { status: "succeeded", workflowId: "w1" }, T1)).toBeUndefined();
    expect(end(releasing, { action: "release", operation: "another" }, { status: "succeeded", workflowId: "w1" }, T1)).toBeUndefined();
    expect(end(releasing, { action: "fly", operation: "op" }, { status: "succeeded", workflowId: "w1" }, T1)).toBeUndefined();
    const failure = { task: "erase-disks", reason: "failed" as const, message: "/dev/sda: secure erase refused" };
    expect(end(releasing, lifecycle, { status: "failed", workflowId: "w1", failure }, T1)).toEqual({
      provisionState: "failed",
      provisioning: {
        ...releasing.provisioning,
        workflowId: "w1",
        updatedAt: T1.toISOString(),
        lastError: { action: "release", workflowId: "w1", ...failure, at: T1.toISOString() },
      },
    });
    expect(end(releasing, lifecycle, { status: "cancelled", workflowId: "w1" }, T1)?.provisioning.lastError).toMatchObject({
      reason: "cancelled",
      message: "cancelled",
    });
    expect(end(releasing, lifecycle, { status: "timeout", workflowId: "w1" }, T1)?.provisioning.lastError).toEqual({
      action: "release",
      workflowId: "w1",
      task: "",
      reason: "failed",
      message: "timeout",
      at: T1.toISOString(),
    });
    // A node with no record of an action waits on none.
    expect(end({ provisionState: "releasing" }, lifecycle, { status: "succeeded", workflowId: "w1" }, T1)).toBeUndefined();
    expect(undo({ provisionState: "releasing" }, "op", { provisionState: "ready" })).toBeUndefined();
    // An allocation keeps its owner as the node is deployed.
    const deploying = begin({ provisionState: "allocated", provisioning: { updatedAt: "t", owner: "o" } }, "deploy", "d", T0);
    expect(end(deploying, { action: "deploy", operation: "d" }, { status: "succeeded", workflowId: "w2" }, T1)?.provisioning.owner).toBe(
      "o",
    );
  });

  it("undoes a begun action only while the node still waits on its operation", () => {
    const before = { provisionState: "ready" as const, provisioning: { updatedAt: "t" } };
    const begun = begin(before, "retire", "op", T0);
    expect(undo(begun, "op", before)).toEqual(before);
    expect(undo(begun, "other", before)).toBeUndefined();
    expect(undo({ provisionState: "retired", provisioning: { ...begun.provisioning } }, "op", before)).toBeUndefined();
  });
});
