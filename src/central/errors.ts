// A refusal of the sandbox as a value with its HTTP status; the server turns it into
// `{ error: { code, message, path, details? } }` (interfaces.md, Errors).
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path: string | null = null,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
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
