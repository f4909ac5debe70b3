import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { libraryEntries, libraryEntry, putLibraryEntry, renderEntry } from "../../../../lib/provisioning/library/textLibrary";
import { later, memoryStores, T0 } from "./setUp";

describe("the template and profile library", () => {
  it("lists the built-ins with their values as tags, then the put ones; a put one replaces the built-in of its name", async () => {
    const stores = memoryStores();
    const builtIns = await libraryEntries(stores, "profiles");
    expect(builtIns.length).toBeGreaterThan(0);
    const [first] = builtIns;
    expect(first).toMatchObject({ scope: "global", createdAt: new Date(0).toISOString() });
    await putLibraryEntry(stores, "profiles", first.name, "#!ipxe\nexit\n", T0);
    await putLibraryEntry(stores, "profiles", "aaa.ipxe", "#!ipxe\n", T0);
    const after = await libraryEntries(stores, "profiles");
    expect(after).toHaveLength(builtIns.length + 1);
    expect(after.filter((entry) => entry.name === first.name)).toEqual([expect.objectContaining({ contents: "#!ipxe\nexit\n" })]);
    expect(after.at(-1)?.name).toBe(first.name > "aaa.ipxe" ? first.name : "aaa.ipxe");
  });

  it("replaces a put entry's text, keeping when it was first put", async () => {
    const stores = memoryStores();
    await putLibraryEntry(stores, "templates", "mine.ks", "one", T0);
    const replaced = await putLibraryEntry(stores, "templates", "mine.ks", "two", later(1));
    expect(replaced).toMatchObject({ contents: "two", createdAt: T0.toISOString(), updatedAt: later(1).toISOString() });
    expect((await libraryEntry(stores, "templates", "mine.ks"))?.contents).toBe("two");
    expect(await libraryEntry(stores, "profiles", "mine.ks")).toBeUndefined();
    expect(await libraryEntry(stores, "templates", "x".repeat(2_000))).toBeUndefined();
    await expect(putLibraryEntry(stores, "templates", "x".repeat(2_000), "t", T0)).rejects.toMatchObject({ kind: "not-found" });
  });

  it("renders a put entry with RackHD's flat names and ours", async () => {
    const api = apiContextFor("http://10.0.0.1:9080");
    const record = {
      id: "t",
      name: "t",
      scope: "global" as const,
      createdAt: "",
      updatedAt: "",
      contents: "<%=repo%> <%=macaddress%> <%=server%> <%=nodeId%>",
    };
    const text = renderEntry(record, { options: { repo: "http://mirror" }, api, nodeId: "n1", mac: "52:54:00:00:00:01" });
    expect(text).toBe(`http://mirror 52:54:00:00:00:01 ${api.server} n1`);
  });
});
