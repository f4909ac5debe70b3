/**
 * The console's only way to the services: their public HTTP APIs, with the same auth as any
 * client. Two ways to sign in: the company's identity provider (issue 55), whose session is an
 * HttpOnly cookie the service set (no script here can read it: the requests carry it with
 * `credentials: "same-origin"`); or Basic credentials, asked for once and kept for the browser
 * session (sessionStorage). Otherwise `credentials: "omit"` keeps the browser's own login prompt
 * away, so a 401 or 403 reaches the console, which says so in its own words.
 */

/** Where the API roots are: the console is served at `<prefix>/console`. */
const PREFIX = location.pathname.replace(/\/console(\/.*)?$/, "");
export const PROVISIONING = `${PREFIX}/api/current`;
export const TASKS = `${PREFIX}/todo/api/v1.0`;

const CREDENTIALS_KEY = "console.credentials";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type AuthListener = (why: "needed" | "refused") => void;
let onAuth: AuthListener = () => {};
/** Who shows the login form when the API asks for credentials. */
export const whenAuthNeeded = (listener: AuthListener): void => {
  onAuth = listener;
};

/** The console's session with the identity provider: who, and whether the provider's sign-in is offered at all. */
export interface Session {
  user: string | null;
  provider: boolean;
}
let session: Session = { user: null, provider: false };

/** Asks the service who the session cookie is (the page cannot read it); a service without the route is a console without the provider. */
export async function loadSession(): Promise<Session> {
  try {
    const response = await fetch(`${PREFIX}/console/session`, { credentials: "same-origin", headers: { accept: "application/json" } });
    if (response.ok) session = (await response.json()) as Session;
  } catch {
    // No session: the Basic form stays.
  }
  return session;
}

/** The provider's sign-in: a navigation away, back to the console once signed in. */
export const PROVIDER_SIGN_IN = `${PREFIX}/console/signin`;

export function signIn(user: string, password: string): void {
  sessionStorage.setItem(CREDENTIALS_KEY, btoa(unescape(encodeURIComponent(`${user}:${password}`))));
}
export async function signOut(): Promise<void> {
  sessionStorage.removeItem(CREDENTIALS_KEY);
  if (session.user !== null) {
    await fetch(`${PREFIX}/console/signout`, { method: "POST", credentials: "same-origin" }).catch(() => undefined);
    session = { ...session, user: null };
  }
}
export const signedIn = (): boolean => sessionStorage.getItem(CREDENTIALS_KEY) !== null || session.user !== null;
/** Who is signed in, as the console shows it. */
export const signedInAs = (): string | null => session.user;

/** The error text of either service's error body, or the status line. */
function errorText(status: number, body: unknown): string {
  if (body && typeof body === "object") {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === "string") return message;
    if (typeof error === "string") return error;
  }
  return `The service answered ${status}`;
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** One request; a JSON body is sent and decoded; an error status throws ApiError with the service's text. */
export async function request<T>(method: string, url: string, body?: unknown): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  const credentials = sessionStorage.getItem(CREDENTIALS_KEY);
  if (credentials) headers.authorization = `Basic ${credentials}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(url, {
    method,
    headers,
    // The provider's session cookie goes only where no Basic credentials do (the API takes one or the other).
    credentials: !credentials && session.user !== null ? "same-origin" : "omit",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let decoded: unknown = text;
  if ((response.headers.get("content-type") ?? "").includes("json") && text !== "") decoded = JSON.parse(text);
  if (response.status === 401 || response.status === 403) {
    onAuth(response.status === 401 && !credentials && session.user === null ? "needed" : "refused");
    throw new ApiError(
      response.status,
      response.status === 401 ? "This service needs you to sign in." : "Your account may not do this (403).",
    );
  }
  if (response.status >= 400) throw new ApiError(response.status, errorText(response.status, decoded));
  return { status: response.status, body: decoded as T, headers: response.headers };
}

export const get = async <T>(url: string): Promise<T> => (await request<T>("GET", url)).body;

/** Every item of a paged list, following its `Link: rel="next"` pages. */
export async function getAll<T>(url: string, pageSize = 500, onPage?: (items: T[]) => void): Promise<T[]> {
  const items: T[] = [];
  let next: string | undefined = `${url}${url.includes("?") ? "&" : "?"}limit=${pageSize}`;
  while (next) {
    const answer: Answer<T[]> = await request<T[]>("GET", next);
    items.push(...answer.body);
    onPage?.(items.slice());
    const link = answer.headers.get("link") ?? "";
    const match = /<([^>]+)>;\s*rel="next"/.exec(link);
    const url = match ? new URL(match[1], location.href) : undefined;
    next = url && url.pathname + url.search;
  }
  return items;
}
