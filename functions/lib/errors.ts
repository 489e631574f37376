/**
 * Typed errors with a status below 500 carry a message that is safe to show to the user.
 * Anything else is mapped to a generic 500 by the error middleware and logged without PHI.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export type FieldErrors = Record<string, string>;

export class ValidationError extends HttpError {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors = {},
  ) {
    super(400, message, { fieldErrors });
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'Unauthorized') {
    super(401, message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'Forbidden') {
    super(403, message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(409, message, details);
  }
}

/**
 * A dependency (the mail service) did not do what was asked. Unlike other 5xx errors its message
 * is written for the user (what happened to their data, what to do next), so it is returned as is.
 */
export class DependencyError extends HttpError {
  readonly exposeMessage = true;
  constructor(
    statusCode: 502 | 503,
    message: string,
    readonly code: string,
    details?: Record<string, unknown>,
  ) {
    super(statusCode, message, details);
  }
}
