import { placeholders, renderText } from "../../../lib/provisioning/textTemplate";

describe("the library's template language (RackHD's EJS values, no code)", () => {
  it("reads a dotted path through plain objects only, and the context's own keys only", () => {
    const context = { repo: "http://mirror", options: { disk: { name: "sda" } } };
    expect(renderText("<%= options.disk.name %>|<%=repo%>", context)).toBe("sda|http://mirror");
    // A string's length, an object's inherited members: not values of the context.
    expect(renderText("[<%=repo.length%>][<%=toString%>][<%=options.hasOwnProperty%>]", context)).toBe("[][][]");
  });

  it("writes null and a missing value as nothing, an object as JSON, anything else on one line", () => {
    const context = { none: null, list: [1, "a"], flag: false, zero: 0, text: "one\r\ntwo\nthree" };
    expect(renderText("[<%=none%>][<%=missing%>][<%=list%>][<%=flag%>][<%=zero%>][<%=text%>]", context)).toBe(
      '[][][[1,"a"]][false][0][one two three]',
    );
  });

  it("gives each property its own tag, and nothing for a symbol", () => {
    const tags = placeholders() as Record<string | symbol, unknown>;
    expect(tags.repo).toBe("<%=repo%>");
    expect(tags[Symbol.toPrimitive]).toBeUndefined();
  });
});
