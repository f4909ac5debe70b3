import fc from "fast-check";
import { apiContextFor } from "../../../lib/provisioning/apiContext";
import { throughRelay } from "../../../lib/provisioning/boot/relayUrls";

const relay = { ...apiContextFor("http://10.1.0.2:8080"), serviceBases: ["http://127.0.0.1:3000", "https://api.example.com/prod"] };

describe("a workflow's URLs of this service, for a machine behind its site's relay (issue 38)", () => {
  it("sends the service's own URLs through the relay and leaves every other value as it was", () => {
    const options = {
      kernelUri: "http://127.0.0.1:3000/common/vmlinuz",
      initrdUri: "https://api.example.com/prod/common/initrd.img?x=1",
      image: "http://127.0.0.1:30000/images/debian.raw.gz",
      repo: "http://mirror.example/debian",
      other: "https://api.example.com/production/x",
      count: 3,
      nested: { kernelUri: "http://127.0.0.1:3000/common/vmlinuz" },
    };
    expect(throughRelay(options, relay)).toEqual({
      ...options,
      kernelUri: "http://10.1.0.2:8080/common/vmlinuz",
      initrdUri: "http://10.1.0.2:8080/common/initrd.img?x=1",
    });
  });

  it("changes nothing for a machine that boots without a relay", () => {
    const options = { kernelUri: "http://127.0.0.1:3000/common/vmlinuz" };
    expect(throughRelay(options, apiContextFor("http://127.0.0.1:3000"))).toBe(options);
  });

  it("rewrites only a value under a base, keeping the rest of it, whatever the values are", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.webUrl(), fc.integer())), (options) => {
        const routed = throughRelay(options, relay);
        for (const [key, value] of Object.entries(options)) {
          const base = relay.serviceBases.find((each) => typeof value === "string" && value.startsWith(`${each}/`));
          expect(routed[key]).toBe(base ? `http://10.1.0.2:8080${(value as string).slice(base.length)}` : value);
        }
      }),
      { numRuns: 200 },
    );
  });
});
