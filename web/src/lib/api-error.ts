/** An API failure as the screens need it: the status, a message safe to show, and field errors keyed by field path. */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: Record<string, string>;
  /** Why the API refused the caller (401/403), e.g. 'no_access', 'user_removed', 'signed_out', 'role'. */
  readonly reason: string | undefined;

  constructor(status: number, message: string, fieldErrors: Record<string, string> = {}, reason?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.reason = reason;
  }
}

/**
 * The API's answer when this session is over: 401 (removed user, signed-out or revoked token,
 * expired token) or 403 no_access (an admin took the user's access away).
 */
export function endsSession(error: ApiError): boolean {
  return error.status === 401 || (error.status === 403 && error.reason === 'no_access');
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** The spec's wording for any failed fetch that carries no message of its own. */
export const NETWORK_ERROR_MESSAGE = 'Network response was not ok';

export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  let message = NETWORK_ERROR_MESSAGE;
  let fieldErrors: Record<string, string> = {};
  let reason: string | undefined;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') {
      const record = body as { message?: unknown; fieldErrors?: unknown; reason?: unknown };
      if (typeof record.message === 'string' && record.message) message = record.message;
      if (typeof record.reason === 'string') reason = record.reason;
      if (record.fieldErrors && typeof record.fieldErrors === 'object') {
        fieldErrors = Object.fromEntries(
          Object.entries(record.fieldErrors as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        );
      }
    }
  } catch {
    // A body that is not JSON keeps the generic message.
  }
  return new ApiError(response.status, message, fieldErrors, reason);
}
