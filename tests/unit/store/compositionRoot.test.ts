import { reloadSettings } from "../../../lib/config/settings";
import { ConfigError } from "../../../lib/errors";
import { provisioningStores, taskStore } from "../../../lib/store/compositionRoot";
import { MemoryTaskStore } from "../../../lib/store/memory/taskStore";

describe("the composition root", () => {
  afterEach(() => {
    delete process.env.BUNDLED_STORE;
    delete process.env.STORE;
    reloadSettings();
  });

  it("picks the memory adapters by default", () => {
    expect(taskStore()).toBeInstanceOf(MemoryTaskStore);
  });

  it("refuses a STORE that the bundle does not hold, saying what to deploy with", async () => {
    process.env.BUNDLED_STORE = "dynamodb";
    reloadSettings();
    expect(() => taskStore()).toThrow(
      new ConfigError("STORE is memory but this bundle holds the dynamodb store only: deploy with STORE=memory"),
    );
    expect(() => provisioningStores()).toThrow(ConfigError);
  });
});
