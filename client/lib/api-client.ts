import type { z } from 'zod';

/** docs/product.md §8: a non-OK response's error message is "<status>: <body text or status text>". */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
  }

  /** The server's `{ message }` when the body is one, else the whole error text. */
  get serverMessage(): string {
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown };
      if (typeof parsed.message === 'string') return parsed.message;
    } catch {
      /* not JSON */
    }
    return this.message;
  }
}

export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: body !== undefined || method !== 'GET' ? { 'content-type': 'application/json' } : undefined,
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  return res;
}

/**
 * The response contract to parse an answer with (common/contracts/*, the schema the server encodes it
 * by), or a loader of it: storefront screens load zod only when they first call the API
 * (client/lib/storefront-contracts.ts), never with the page's first script.
 */
export type Contract<T> = z.ZodType<T> | (() => Promise<z.ZodType<T>>);

async function parseWith<T>(contract: Contract<T>, data: unknown): Promise<T> {
  const schema = typeof contract === 'function' ? await contract() : contract;
  return schema.parse(data);
}

export async function apiJson<T>(method: string, url: string, body?: unknown, schema?: Contract<T>): Promise<T> {
  const res = await apiRequest(method, url, body);
  const data: unknown = await res.json();
  return schema ? parseWith(schema, data) : (data as T);
}

/** Default query function: GET the query key joined as a path; `on401: 'null'` yields null. */
export function getQueryFn<T>(opts: { on401: 'throw' | 'null' } = { on401: 'throw' }) {
  return async ({ queryKey }: { queryKey: readonly unknown[] }): Promise<T | null> => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include' });
    if (opts.on401 === 'null' && res.status === 401) return null;
    if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
    return (await res.json()) as T;
  };
}
