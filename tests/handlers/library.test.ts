import { nodeIdForMac } from "../../lib/provisioning/ids";
import { api, freshContainer, get, send } from "../support/api";

const A = "/api/1.1";
const MAC = "08:00:27:27:eb:12";
const NODE = nodeIdForMac(MAC);

const put = (path: string, text: string, contentType = "text/plain") =>
  api({ method: "PUT", path, headers: { "content-type": contentType }, body: text });

beforeEach(() => {
  for (const name of ["PROVISIONING_AUTH", "AUTH_USERS", "API_SERVER", "DISCOVERY_GRAPH", "BOOT_TOKENS"]) delete process.env[name];
  process.env.DEMO_NODES = "on";
  freshContainer();
});

/** Starts Graph.InstallCentOS on the demo node; answers the kickstart URL its profile names. */
async function startInstall(): Promise<string> {
  await send("POST", `${A}/nodes/${NODE}/obm`, { service: "noop-obm-service", config: {} });
  const started = await send("POST", `${A}/nodes/${NODE}/workflows`, {
    name: "Graph.InstallCentOS",
    options: { "install-os": { version: "7", repo: "http://mirror.local/centos/7", rootPassword: "x" } },
  });
  expect(started.status).toBe(201);
  const profile = (await get(`/api/current/profiles?macs=${MAC}`)).raw;
  return /ks=https:\/\/[^/]+(\S+)/.exec(profile)![1];
}

describe("the template library", () => {
  it("lists the built-in templates with their values as tags, and is not taken by the node-template route", async () => {
    const list = await get(`${A}/templates/library`);
    expect(list.status).toBe(200);
    const names = list.body.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(["centos-ks", "ubuntu-preseed", "esx-ks", "renasar-ansible.pub"]));
    for (const item of list.body) expect(Object.keys(item).sort()).toEqual(["contents", "createdAt", "id", "name", "scope", "updatedAt"]);
    const centos = (await get(`${A}/templates/library/centos-ks`)).body;
    expect(centos.contents).toContain("url --url=<%=repo%>");
    expect(centos.contents).toContain("rootpw --iscrypted <%=rootEncryptedPassword%>");
    expect(centos.contents).toContain("wget --spider '<%=api.templates%>/<%=completionUri%>?nodeId=<%=nodeId%>&token=<%=token%>'");
    expect(await get(`${A}/templates/library/nope`)).toMatchObject({ status: 404, body: { error: "Not Found" } });
  });

  it("takes a put template (any content type; FIT puts `null` with ?scope=global) and answers it", async () => {
    const putAnswer = await put(`${A}/templates/library/testid?scope=global`, "null", "application/octet-stream");
    expect(putAnswer.status).toBe(200);
    expect(putAnswer.body).toMatchObject({ id: "testid", name: "testid", contents: "null", scope: "global" });
    expect((await get(`${A}/templates/library/testid`)).body.contents).toBe("null");
    expect((await get(`${A}/templates/library`)).body.map((t: { name: string }) => t.name)).toContain("testid");
  });

  it("deletes a put template as FIT rackhd11 does (200 with the record), then 404; a built-in comes back (issue 35 §13)", async () => {
    expect((await put(`${A}/templates/library/testid?scope=global`, "null", "application/octet-stream")).status).toBe(200);
    const removed = await send("DELETE", `${A}/templates/library/testid`);
    expect(removed).toMatchObject({ status: 200, body: { id: "testid", name: "testid", contents: "null" } });
    expect(await get(`${A}/templates/library/testid`)).toMatchObject({ status: 404, body: { error: "Not Found" } });
    expect(await send("DELETE", `${A}/templates/library/testid`)).toMatchObject({ status: 404, body: { error: "Not Found" } });
    const builtIn = (await get(`${A}/templates/library/centos-ks`)).body.contents;
    expect((await put(`${A}/templates/library/centos-ks`, "# mine")).status).toBe(200);
    expect((await send("DELETE", `${A}/templates/library/centos-ks`)).status).toBe(200);
    expect((await get(`${A}/templates/library/centos-ks`)).body.contents).toBe(builtIn);
    expect((await send("DELETE", `${A}/templates/library/centos-ks`)).status).toBe(404);
  });

  it("renders a changed kickstart to the booting node from then on, with RackHD's flat names and ours", async () => {
    const builtIn = (await get(`${A}/templates/library/centos-ks`)).body.contents as string;
    const changed = `${builtIn}\n# site: <%= repo %> for <%=nodeId%> (<%=options.hostname%>, <%=api.server%>) <% evil() %>\n`;
    expect((await put(`${A}/templates/library/centos-ks`, changed)).status).toBe(200);
    const kickstartPath = await startInstall();
    const kickstart = await api({ method: "GET", path: kickstartPath, headers: {} });
    expect(kickstart.status).toBe(200);
    expect(kickstart.raw).toContain(
      `# site: http://mirror.local/centos/7 for ${NODE} (localhost, https://abc123.execute-api.us-east-1.amazonaws.com) <% evil() %>`,
    );
    expect(kickstart.raw).toMatch(/^rootpw --iscrypted \$6\$/m);
    expect(kickstart.raw).toContain("url --url=http://mirror.local/centos/7");
    // The rendered completion command still completes the install.
    const spider = /wget --spider 'https:\/\/[^/]+([^']+)'/.exec(kickstart.raw)![1];
    expect((await api({ method: "GET", path: spider, headers: {} })).status).toBe(200);
    expect((await get(`${A}/nodes/${NODE}/workflows`)).body[0]._status).toBe("succeeded");
  });
});

describe("what the machine did, on the install task", () => {
  it("records when the machine fetched its boot profile and its install script, each once", async () => {
    const kickstartPath = await startInstall();
    const installTask = async () => {
      const [workflow] = (await get(`${A}/nodes/${NODE}/workflows`)).body;
      return Object.values(workflow.tasks as Record<string, Record<string, string>>).find((task) => task.label === "install-os")!;
    };
    const booted = await installTask();
    expect(booted.bootedAt).toMatch(/^\d{4}-/);
    expect(booted.templateFetchedAt).toBeUndefined();

    expect((await api({ method: "GET", path: kickstartPath, headers: {} })).status).toBe(200);
    const fetched = (await installTask()).templateFetchedAt;
    expect(fetched).toMatch(/^\d{4}-/);
    expect(fetched >= booted.bootedAt).toBe(true);
    await api({ method: "GET", path: kickstartPath, headers: {} });
    expect((await installTask()).templateFetchedAt).toBe(fetched);
  });
});

describe("the profile library", () => {
  it("has RackHD's boilerplate.ipxe: the lines every profile starts with", async () => {
    const boilerplate = await get(`${A}/profiles/library/boilerplate.ipxe`);
    expect(boilerplate.status).toBe(200);
    expect(boilerplate.body.contents).toBe("#!ipxe\nset user-class MonoRail\nset interface <%=mac%>\n");
    const linux = (await get(`${A}/profiles/library/linux.ipxe`)).body.contents as string;
    expect(linux.startsWith(boilerplate.body.contents)).toBe(true);
  });

  it("answers profiles as JSON records (RackHD), a put one boots for a task that names it", async () => {
    const list = (await get(`${A}/profiles/library`)).body.map((p: { name: string }) => p.name);
    expect(list).toEqual(expect.arrayContaining(["install-centos.ipxe", "linux.ipxe"]));
    const linux = await get(`${A}/profiles/library/linux.ipxe`);
    expect(linux.headers["content-type"]).toMatch(/^application\/json/);
    expect(linux.body.contents).toContain("kernel <%=kernelUri%>");
    await put(`${A}/profiles/library/my.ipxe`, "echo Booting <%=nodeId%> from <%=repo%>\nsanboot --no-describe --drive 0x80");
    await send("PUT", `${A}/workflows/tasks`, {
      friendlyName: "Boot mine",
      injectableName: "Task.Boot.Mine",
      implementsTask: "Task.Base.Os.Install",
      options: { profile: "my.ipxe", completionUri: "renasar-ansible.pub", repo: "http://r" },
      properties: {},
    });
    await send("PUT", `${A}/workflows`, {
      friendlyName: "Mine",
      injectableName: "Graph.Mine",
      tasks: [{ label: "boot", taskName: "Task.Boot.Mine" }],
    });
    expect((await send("POST", `${A}/nodes/${NODE}/workflows`, { name: "Graph.Mine" })).status).toBe(201);
    const profile = (await get(`/api/current/profiles?macs=${MAC}`)).raw;
    expect(profile).toMatch(/^#!ipxe\n/);
    expect(profile).toContain(`echo Booting ${NODE} from http://r\nsanboot --no-describe --drive 0x80`);
    expect(await get(`${A}/profiles/library/none.ipxe`)).toMatchObject({ status: 404, body: { error: "Not Found" } });
  });
});
