/**
 * Domain errors. They say what went wrong in the terms of the domain; the one place that turns
 * them into HTTP answers is `lib/http/errorMapping.ts`. Nothing here knows about status codes.
 */
/**
 * Brand shared by every bundle in the process. esbuild gives each handler its own copy of this
 * module, and the shared store on globalThis may have been created by another handler's bundle,
 * so `instanceof DomainError` can be false for an error thrown by the store: check the brand.
 */
const DOMAIN_ERROR = Symbol.for("lambda-tasks-provisioning.DomainError");

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  readonly [DOMAIN_ERROR] = true;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export const isDomainError = (error: unknown): error is DomainError =>
  typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[DOMAIN_ERROR] === true;

export type ErrorKind =
  | "bad-request"
  | "unauthorized"
  | "forbidden"
  | "not-found"
  | "method-not-allowed"
  | "conflict"
  | "unprocessable"
  | "payload-too-large"
  | "insufficient-storage"
  | "unavailable"
  | "too-many-requests";

/** The request is malformed or breaks a rule of the contract. */
export class ValidationError extends DomainError {
  readonly kind = "bad-request";
}

/** Known who asks, and refused (a boot request without its workflow's token). */
export class ForbiddenError extends DomainError {
  readonly kind = "forbidden";
}

/** The thing asked for does not exist. */
export class NotFoundError extends DomainError {
  readonly kind = "not-found";
}

/** The request would break a uniqueness or state rule (a MAC already owned, an active workflow). */
export class ConflictError extends DomainError {
  readonly kind = "conflict";
}

/** The same request is still being carried out (an Idempotency-Key in use): try again later. */
export class InProgressError extends DomainError {
  readonly kind = "conflict";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Well-formed, but at odds with what was said before (an Idempotency-Key reused with another body). */
export class UnprocessableError extends DomainError {
  readonly kind = "unprocessable";
}

/** A store refuses to grow past its configured capacity. */
export class CapacityError extends DomainError {
  readonly kind = "insufficient-storage";
}

/**
 * A store the request needs cannot answer now (throttled, unreachable, timed out): the client
 * should try again after `retryAfterSeconds`. `cause` says what the store said, for the log.
 */
export class UnavailableError extends DomainError {
  static is = (error: unknown): error is UnavailableError => isDomainError(error) && error.kind === "unavailable";
  readonly kind = "unavailable";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    readonly cause?: string,
  ) {
    super(message);
  }
}

/** Too many failed attempts from this user or source (issue 35 §9): try again after `retryAfterSeconds`. */
export class TooManyAttemptsError extends DomainError {
  readonly kind = "too-many-requests";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Missing or wrong credentials on a protected route. */
export class UnauthorizedError extends DomainError {
  readonly kind = "unauthorized";
}

/** The request body is larger than the configured limit. */
export class PayloadTooLargeError extends DomainError {
  readonly kind = "payload-too-large";
}

/** The path exists but not with this method. */
export class MethodNotAllowedError extends DomainError {
  static is = (error: unknown): error is MethodNotAllowedError => isDomainError(error) && error.kind === "method-not-allowed";
  readonly kind = "method-not-allowed";
  constructor(
    message: string,
    readonly allow: readonly string[],
  ) {
    super(message);
  }
}

/** A setting has a value the service cannot run with. Not a client error: it maps to 500. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
