// A refusal of the sandbox as a value with its HTTP status; the server turns it into
// `{ error: { code, message, path, details? } }` (interfaces.md, Errors).
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly path: string | null;
  readonly details?: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    path: string | null = null,
    details?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.path = path;
    this.details = details;
    this.headers = headers;
    this.name = 'HttpError';
  }

  body(): {
    error: {
      code: string;
      message: string;
      path: string | null;
      details?: Record<string, unknown>;
    };
  } {
    return {
      error: {
        code: this.code,
        message: this.message,
        path: this.path,
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}
