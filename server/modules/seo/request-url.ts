import type { FastifyRequest } from 'fastify';

const HOST_RE = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The URL a page request came to. The path is parsed against a fixed base so `//evil.example/x`
 * stays a path, and a malformed Host header falls back to localhost instead of throwing.
 */
export function requestUrl(request: FastifyRequest): URL {
  let url: URL;
  try {
    url = new URL(`http://localhost${request.url.startsWith('/') ? '' : '/'}${request.url}`);
  } catch {
    url = new URL('http://localhost/');
  }
  const host = request.host;
  if (host && HOST_RE.test(host)) {
    const origin = new URL(`${request.protocol === 'https' ? 'https' : 'http'}://${host}`);
    url.protocol = origin.protocol;
    url.host = origin.host;
  }
  return url;
}
