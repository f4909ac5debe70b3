import { apiContextFor } from "../../../../lib/provisioning/apiContext";
import { renderEntry } from "../../../../lib/provisioning/boot/putEntry";
import { deleteLibraryEntry, libraryEntries, libraryEntry, putLibraryEntry } from "../../../../lib/provisioning/library/textLibrary";
import { RECORD_MAX_BYTES } from "../../../../lib/provisioning/recordSize";
import { later, memoryStores, T0 } from "./setUp";

/** A put entry with these contents, as renderEntry reads it. */
const aRecord = (contents: string) => ({ id: "t", name: "t", scope: "global" as const, createdAt: "", updatedAt: "", contents });

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
    const record = aRecord("<%=repo%> <%=macaddress%> <%=server%> <%=nodeId%>");
    const text = renderEntry(record, { options: { repo: "http://mirror" }, api, nodeId: "n1", mac: "52:54:00:00:00:01" });
    expect(text).toBe(`http://mirror 52:54:00:00:00:01 ${api.server} n1`);
  });

  it("lists the put entries by name after the built-ins, and shows a built-in profile's text", async () => {
    const stores = memoryStores();
    for (const name of ["zz.ipxe", "aa.ipxe", "mm.ipxe"]) await putLibraryEntry(stores, "profiles", name, "#!ipxe\n", T0);
    const entries = await libraryEntries(stores, "profiles");
    expect(entries.slice(-3).map((entry) => entry.name)).toEqual(["aa.ipxe", "mm.ipxe", "zz.ipxe"]);
    expect(entries.slice(-3).map((entry) => entry.scope)).toEqual(["global", "global", "global"]);
    expect(entries[0].contents).toMatch(/^#!ipxe/);
  });

  it("refuses a name too long to keep, naming its kind and the name's start", async () => {
    const stores = memoryStores();
    await expect(putLibraryEntry(stores, "profiles", "y".repeat(2_000), "t", T0)).rejects.toMatchObject({
      kind: "not-found",
      message: `Could not find profiles ${"y".repeat(64)}…`,
    });
  });

  it.each([
    ["templates", "template"],
    ["profiles", "profile"],
  ] as const)("refuses to replace a %s entry with text too large to store, naming a %s", async (kind, what) => {
    const stores = memoryStores();
    await putLibraryEntry(stores, kind, "big", "small", T0);
    const refused = putLibraryEntry(stores, kind, "big", "x".repeat(RECORD_MAX_BYTES), later(1));
    await expect(refused).rejects.toMatchObject({
      kind: "payload-too-large",
      message: expect.stringMatching(new RegExp(`^The ${what} would take`)),
    });
    expect((await libraryEntry(stores, kind, "big"))?.contents).toBe("small");
  });

  it("deletes a put entry (the built-in of its name is served again), and nothing else", async () => {
    const stores = memoryStores();
    const [builtIn] = await libraryEntries(stores, "templates");
    await putLibraryEntry(stores, "templates", builtIn.name, "mine", T0);
    expect(await deleteLibraryEntry(stores, "templates", builtIn.name)).toMatchObject({ name: builtIn.name, contents: "mine" });
    expect((await libraryEntry(stores, "templates", builtIn.name))?.contents).toBe(builtIn.contents);
    expect(await deleteLibraryEntry(stores, "templates", builtIn.name)).toBeUndefined();
    expect(await deleteLibraryEntry(stores, "templates", "z".repeat(2_000))).toBeUndefined();
  });

  it("renders the boot token when there is one, nothing when not, and the file server", () => {
    const api = apiContextFor("http://10.0.0.1:9080");
    const record = aRecord("[<%=token%>][<%=file.server%>]");
    const context = { options: {}, api, nodeId: "n1", mac: "52:54:00:00:00:01" };
    expect(renderEntry(record, { ...context, token: "tok-1" })).toBe(`[tok-1][${api.fileServer}]`);
    expect(renderEntry(record, context)).toBe(`[][${api.fileServer}]`);
  });
});
