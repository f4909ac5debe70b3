import { apiContextFor } from "../../../lib/provisioning/apiContext";

/** The servers and the machine credential the install scripts' unit tests render with. */
export const api = apiContextFor("http://svc.example");

export const instance = {
  credential: "0123456789abcdef01234567.x",
  instanceId: "i-1",
  seedUrl: "http://svc.example/api/current/nocloud/c/",
  reportUrl: "http://svc.example/api/current/reports/c",
};
