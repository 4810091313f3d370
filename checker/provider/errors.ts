/** The API's error types, each with the HTTP status it travels with. */
export const STATUS_OF = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
} as const;

export type ApiErrorType = keyof typeof STATUS_OF;

/** The error type the real API pairs with a status; 503 has no type of its own and reports api_error. */
export function typeForStatus(status: number): ApiErrorType {
  const match = (Object.entries(STATUS_OF) as [ApiErrorType, number][]).find(([, s]) => s === status);
  if (match) return match[0];
  return status >= 500 ? "api_error" : "invalid_request_error";
}

/** A failure the provider answers with the API's error shape. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ApiErrorType;
  readonly headers: Record<string, string>;
  /** What the chat-completions wire adds to its error body: the field at fault and a machine-readable code. */
  readonly param: string | null;
  readonly code: string | null;

  constructor(status: number, message: string, opts: { type?: ApiErrorType; headers?: Record<string, string>; param?: string; code?: string } = {}) {
    super(message);
    this.status = status;
    this.type = opts.type ?? typeForStatus(status);
    this.headers = opts.headers ?? {};
    this.param = opts.param ?? null;
    this.code = opts.code ?? null;
  }

  body(requestId: string): ErrorBody {
    return { type: "error", error: { type: this.type, message: this.message }, request_id: requestId };
  }
}

export interface ErrorBody {
  type: "error";
  error: { type: ApiErrorType; message: string };
  request_id: string;
}

export const invalid = (message: string) => new ApiError(400, message);
