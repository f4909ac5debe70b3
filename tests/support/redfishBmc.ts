import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A Redfish BMC TEST FIXTURE, hand-written: no Redfish emulator can be installed on these machines
 * (sushy-tools and DMTF's mockup server are Python packages outside the registries they reach), so
 * this is the one stand-in the project allows. It serves, over HTTPS with its own self-signed
 * certificate, the few resources a relay uses, in the shapes of DMTF's public mockups (the
 * "public-rackmount1" system 437XR1138R2): the service root, the systems collection, one
 * ComputerSystem with `Boot`, `PowerState`, `IndicatorLED` and its Reset action. It checks Basic
 * credentials, and rejects what real BMCs reject: a `BootSourceOverrideMode` (when told to, as some
 * BMCs do, which bmclib retries without) and a ResetType outside the allowable values, with
 * DMTF-style error bodies. The relay's driver does not know it talks to a fixture.
 */
export interface RedfishBmc {
  url: string;
  /** The certificate to pin (PEM). */
  ca: string;
  system: () => { PowerState: string; Boot: Record<string, unknown>; IndicatorLED: string };
  requests: string[];
  close: () => Promise<void>;
}

const SYSTEM = "/redfish/v1/Systems/437XR1138R2";
const RESET_TYPES = ["On", "ForceOff", "GracefulShutdown", "GracefulRestart", "ForceRestart", "PowerCycle"];
const TARGETS = ["None", "Pxe", "Hdd", "UefiHttp", "BiosSetup"];

const error = (code: string, message: string) => ({
  error: { code: `Base.1.8.${code}`, message, "@Message.ExtendedInfo": [{ MessageId: `Base.1.8.${code}`, Message: message }] },
});

export interface RedfishMachine {
  running: () => boolean;
  reset: (type: string) => Promise<void>;
}

export async function startRedfishBmc(options: {
  user: string;
  password: string;
  rejectBootMode?: boolean;
  /** A real machine (tests/support/qmpMachine.ts) whose power this BMC drives; else its power is a value. */
  machine?: RedfishMachine;
}): Promise<RedfishBmc> {
  const dir = mkdtempSync(join(tmpdir(), "redfish-bmc-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ].concat(["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]),
    { stdio: "ignore" },
  );
  const ca = readFileSync(join(dir, "cert.pem"), "utf8");
  const state = {
    PowerState: "Off",
    IndicatorLED: "Off",
    Boot: { BootSourceOverrideTarget: "None", BootSourceOverrideEnabled: "Disabled" } as Record<string, unknown>,
  };
  const requests: string[] = [];
  const send = (response: ServerResponse, status: number, body: unknown) =>
    status === 204
      ? response.writeHead(204).end()
      : response.writeHead(status, { "content-type": "application/json", "odata-version": "4.0" }).end(JSON.stringify(body));

  const handle = (request: IncomingMessage, response: ServerResponse, raw: string) => {
    const path = (request.url ?? "").split("?")[0].replace(/\/$/, "");
    requests.push(`${request.method} ${path}${raw ? ` ${raw}` : ""}`);
    const expected = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString("base64")}`;
    if (request.headers.authorization !== expected)
      return send(
        response,
        401,
        error(
          "InsufficientPrivilege",
          "There are insufficient privileges for the account or credentials associated with the current session to perform the requested operation.",
        ),
      );
    let body: Record<string, unknown> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return send(
        response,
        400,
        error("MalformedJSON", "The request body submitted was malformed JSON and could not be parsed by the receiving service."),
      );
    }
    const route = `${request.method} ${path}`;
    if (route === "GET /redfish/v1")
      return send(response, 200, {
        "@odata.id": "/redfish/v1",
        Id: "RootService",
        RedfishVersion: "1.15.0",
        Systems: { "@odata.id": "/redfish/v1/Systems" },
        SessionService: { "@odata.id": "/redfish/v1/SessionService" },
      });
    if (route === "GET /redfish/v1/Systems")
      return send(response, 200, { "@odata.id": "/redfish/v1/Systems", Members: [{ "@odata.id": SYSTEM }], "Members@odata.count": 1 });
    if (route === `GET ${SYSTEM}`) {
      return send(response, 200, {
        "@odata.id": SYSTEM,
        Id: "437XR1138R2",
        Name: "WebFrontEnd483",
        SystemType: "Physical",
        PowerState: options.machine ? (options.machine.running() ? "On" : "Off") : state.PowerState,
        IndicatorLED: state.IndicatorLED,
        Boot: { ...state.Boot, "BootSourceOverrideTarget@Redfish.AllowableValues": TARGETS },
        Actions: {
          "#ComputerSystem.Reset": { target: `${SYSTEM}/Actions/ComputerSystem.Reset`, "ResetType@Redfish.AllowableValues": RESET_TYPES },
        },
      });
    }
    if (route === `PATCH ${SYSTEM}`) {
      const boot = body.Boot as Record<string, unknown> | undefined;
      if (boot && "BootSourceOverrideMode" in boot && options.rejectBootMode) {
        return send(
          response,
          400,
          error("PropertyNotWritable", "The property BootSourceOverrideMode is a read only property and cannot be assigned a value."),
        );
      }
      if (boot && !TARGETS.includes(String(boot.BootSourceOverrideTarget))) {
        return send(
          response,
          400,
          error(
            "PropertyValueNotInList",
            `The value ${String(boot.BootSourceOverrideTarget)} for the property BootSourceOverrideTarget is not in the list of acceptable values.`,
          ),
        );
      }
      if (boot) state.Boot = { ...state.Boot, ...boot };
      if (typeof body.IndicatorLED === "string") state.IndicatorLED = body.IndicatorLED;
      return send(response, 200, { "@odata.id": SYSTEM, PowerState: state.PowerState, Boot: state.Boot });
    }
    if (route === `POST ${SYSTEM}/Actions/ComputerSystem.Reset`) {
      const type = String(body.ResetType);
      if (!RESET_TYPES.includes(type))
        return send(
          response,
          400,
          error(
            "ActionParameterNotSupported",
            `The parameter ResetType for the action ComputerSystem.Reset is not supported on the target resource.`,
          ),
        );
      state.PowerState = type === "ForceOff" || type === "GracefulShutdown" ? "Off" : "On";
      if (options.machine) {
        options.machine.reset(type).then(
          () => send(response, 204, {}),
          (error: Error) => send(response, 500, error.message),
        );
        return;
      }
      return send(response, 204, {});
    }
    return send(response, 404, error("ResourceMissingAtURI", `The resource at the URI ${path} was not found.`));
  };

  const server = createServer({ key: readFileSync(join(dir, "key.pem")), cert: ca }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => handle(request, response, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${port}`,
    ca,
    system: () => ({
      PowerState: options.machine ? (options.machine.running() ? "On" : "Off") : state.PowerState,
      Boot: { ...state.Boot },
      IndicatorLED: state.IndicatorLED,
    }),
    requests,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
