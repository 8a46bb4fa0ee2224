/** Raw tRPC-over-HTTP calls, as a browser makes them: GET for queries, JSON POST for mutations. */
export interface TrpcResult {
  status: number;
  ok: boolean;
  data: any;
  error: { message: string; code: number; data: { code: string; httpStatus: number; fields?: Array<{ path: string; message: string }> } } | null;
  setCookie: string[];
  headers: Headers;
}

export interface CallOptions {
  cookie?: string;
  origin?: string;
  headers?: Record<string, string>;
}

export async function trpcQuery(baseUrl: string, path: string, input?: unknown, options: CallOptions = {}): Promise<TrpcResult> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return toResult(await fetch(`${baseUrl}/trpc/${path}${query}`, { headers: headers(options) }));
}

export async function trpcMutation(baseUrl: string, path: string, input?: unknown, options: CallOptions = {}): Promise<TrpcResult> {
  return toResult(
    await fetch(`${baseUrl}/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers(options) },
      body: JSON.stringify(input ?? {}),
    }),
  );
}

function headers(options: CallOptions): Record<string, string> {
  return {
    ...(options.cookie ? { cookie: options.cookie } : {}),
    ...(options.origin ? { origin: options.origin } : {}),
    ...options.headers,
  };
}

async function toResult(response: Response): Promise<TrpcResult> {
  const body = (await response.json()) as { result?: { data: unknown }; error?: TrpcResult["error"] };
  return {
    status: response.status,
    ok: response.ok,
    data: body.result?.data ?? null,
    error: body.error ?? null,
    setCookie: response.headers.getSetCookie(),
    headers: response.headers,
  };
}

/** The `name=value` part of a Set-Cookie header, for the next request's Cookie header. */
export function cookieFrom(setCookie: string[], name = "herald_session"): string {
  const header = setCookie.find((c) => c.startsWith(`${name}=`));
  if (!header) throw new Error(`no ${name} cookie was set`);
  return header.split(";")[0]!;
}
