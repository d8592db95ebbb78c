import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import { describe, expect, test } from 'vitest';
import { cookieName, cookieOptions, PASS_COOKIE, registerCookieCache, requestCookies, SESSION_COOKIE } from './cookies';

describe('cookies', () => {
  test('names carry the __Host- prefix on an https shop only', () => {
    expect(cookieName(SESSION_COOKIE, false)).toBe('fifty_sid');
    expect(cookieName(PASS_COOKIE, true)).toBe('__Host-fifty_pass');
  });

  test("a request's Cookie header is parsed once, whoever asks", async () => {
    const app = Fastify();
    await app.register(cookie, { hook: false });
    registerCookieCache(app);
    app.get('/', async (request) => {
      const first = requestCookies(request);
      return { same: first === requestCookies(request), pass: first[PASS_COOKIE] ?? null, none: requestCookies(request).missing ?? null };
    });
    const res = await app.inject({ url: '/', headers: { cookie: 'fifty_pass=v1.a~v1.b; other=1' } });
    expect(res.json()).toEqual({ same: true, pass: 'v1.a~v1.b', none: null });
    await app.close();
  });

  test('options: whole site, HttpOnly, lax, Secure on https, max-age rounded as asked', async () => {
    const app = Fastify();
    app.get('/', async (request) => ({ down: cookieOptions(request, false, 1500), up: cookieOptions(request, true, 1500, Math.ceil) }));
    const res = await app.inject({ url: '/' });
    expect(res.json()).toEqual({
      down: { path: '/', httpOnly: true, sameSite: 'lax', secure: false, maxAge: 1 },
      up: { path: '/', httpOnly: true, sameSite: 'lax', secure: true, maxAge: 2 },
    });
    await app.close();
  });
});
