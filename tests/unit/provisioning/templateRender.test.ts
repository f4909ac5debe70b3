import fc from "fast-check";
import { renderDeep, renderString, TemplateRenderError } from "../../../lib/provisioning/workflowEngine/templateRender";

const context = {
  api: { server: "http://10.1.1.1:8080" },
  options: { version: "7.0", repo: "{{api.server}}/centos/{{options.version}}", empty: "" },
  task: { nodeId: "abc" },
};

describe("renderString", () => {
  it("fills values, recursively", () => {
    expect(renderString("{{ options.repo }}/os", context)).toBe("http://10.1.1.1:8080/centos/7.0/os");
    expect(renderString("{{task.nodeId}}", context)).toBe("abc");
  });

  it("takes the first existing alternative, else the literal", () => {
    expect(renderString("{{ options.missing | options.version }}", context)).toBe("7.0");
    expect(renderString("{{ options.missing | options.empty | sda }}", context)).toBe("sda");
  });

  it("fails with RackHD's message for a missing or empty value", () => {
    expect(() => renderString("{{options.nope}}", context)).toThrow(new TemplateRenderError("Value does not exist for options.nope"));
    expect(() => renderString("{{options.empty}}", context)).toThrow("Value does not exist for options.empty");
  });

  it("fails instead of looping on values that refer to each other", () => {
    expect(() => renderString("{{options.a}}", { options: { a: "{{options.b}}", b: "{{options.a}}" } })).toThrow(TemplateRenderError);
  });

  it("leaves text without templates as it is", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes("{{")),
        (text) => expect(renderString(text, context)).toBe(text),
      ),
    );
  });

  it("never throws anything but TemplateRenderError", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          renderString(`{{${text}}}`, context);
        } catch (error) {
          expect(error).toBeInstanceOf(TemplateRenderError);
        }
      }),
    );
  });
});

describe("renderDeep", () => {
  it("renders strings in objects and arrays and keeps other values", () => {
    expect(renderDeep({ a: ["{{task.nodeId}}", 1, null], b: { c: true } }, context)).toEqual({ a: ["abc", 1, null], b: { c: true } });
  });
});
