import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie, { Signer } from '@fastify/cookie';
import type { SessionData } from '../modules/session/session.tables';
import { SESSION_TTL_MS, type SessionRecord, type SessionService } from '../modules/session/session.service';
import {
  clearedCookieOptions,
  cookieName,
  cookieOptions,
  registerCookieCache,
  requestCookies,
  SESSION_COOKIE,
} from '../lib/cookies';

type CookieSerializeOptions = NonNullable<Parameters<FastifyInstance['serializeCookie']>[2]>;

/**
 * Signed cookies are bound to their name (ADR 012): each cookie name signs with its own key, derived
 * from the session secret, so a value the shop signed for one cookie (a shopper's `fifty_sid`) never
 * verifies as another (the owner's device cookie). @fastify/cookie signs only the value, so it is
 * registered without a secret and its own `signed: true` / `unsignCookie` are unavailable on purpose.
 */
export function createCookieSigners(secret: string) {
  const signers = new Map<string, InstanceType<typeof Signer>>();
  const signerFor = (base: string) => {
    let signer = signers.get(base);
    if (!signer) {
      signer = new Signer(crypto.createHmac('sha256', secret).update(`fifty:cookie:${base}`).digest());
      signers.set(base, signer);
    }
    return signer;
  };
  return {
    /** `value.signature`, valid only for the cookie named `base`. */
    sign: (base: string, value: string): string => signerFor(base).sign(value),
    /** The value when `raw` was signed for the cookie named `base`, else null. */
    unsign(base: string, raw: string): string | null {
      const unsigned = signerFor(base).unsign(raw);
      return unsigned.valid && unsigned.value ? unsigned.value : null;
    },
  };
}
export type CookieSigners = ReturnType<typeof createCookieSigners>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The shopper's session if the cookie names a live one; never creates. Cached per request. */
    getSession(): Promise<SessionRecord | null>;
    /** The shopper's session, created (and the cookie set) when there is none. */
    ensureSession(): Promise<SessionRecord>;
    /** Replace the session with a fresh id carrying `data` (login): defeats session fixation. */
    regenerateSession(data: SessionData): Promise<SessionRecord>;
    /** Destroy the session on the server and clear the cookie. */
    destroySession(): Promise<void>;
    saveSession(data: SessionData): Promise<void>;
    /** The value of a signed cookie of ours (`base` name, prefixed on https), or null when absent or forged. */
    readSignedCookie(base: string): string | null;
    /** Sets a signed HttpOnly cookie of ours on this request's reply. */
    setSignedCookie(base: string, value: string, maxAgeMs: number): void;
  }
}

// Per-request state lives in decorated properties, not WeakMaps keyed by request: WeakMap entries for
// short-lived objects are costly for the garbage collector on every request (bench/README.md, "Before and
// what changed").
const kReply = Symbol('fifty.sessionReply');
const kPending = Symbol('fifty.sessionPending');
type SessionRequest = FastifyRequest & { [kReply]: FastifyReply | null; [kPending]: Promise<SessionRecord | null> | null };

export async function registerSession(
  app: FastifyInstance,
  opts: { secret: string; sessions: SessionService; secureCookies?: boolean },
): Promise<void> {
  // hook: false: the cookie header is parsed only when a route asks for the session, not on every request.
  // No secret: signing is ours, per cookie name (createCookieSigners).
  await app.register(cookie, { hook: false });
  registerCookieCache(app);
  const { sessions } = opts;
  const signers = createCookieSigners(opts.secret);
  app.decorate('cookieSigners', signers);
  const secureCookies = opts.secureCookies ?? false;
  const sessionCookie = cookieName(SESSION_COOKIE, secureCookies);
  /**
   * Writes the Set-Cookie line at once, replacing an earlier one of the same name in this answer. The
   * cookie plugin runs without hooks (nothing parsed or flushed on every request), and the version we
   * pin writes its own setCookie's lines only from its onSend hook, which `hook: false` leaves out.
   */
  const writeCookie = (reply: FastifyReply, name: string, value: string, options: CookieSerializeOptions) => {
    const line = app.serializeCookie(name, value, { sameSite: 'lax', ...options });
    const prior = reply.getHeader('set-cookie');
    const kept = (prior === undefined ? [] : Array.isArray(prior) ? prior : [String(prior)]).filter((c) => !c.startsWith(`${name}=`));
    reply.removeHeader('set-cookie');
    reply.header('set-cookie', [...kept, line]);
  };
  const setCookie = (request: FastifyRequest, reply: FastifyReply, sid: string) =>
    writeCookie(reply, sessionCookie, signers.sign(SESSION_COOKIE, sid), cookieOptions(request, secureCookies, SESSION_TTL_MS));

  app.decorateRequest(kReply, null);
  app.decorateRequest(kPending, null);
  const setPending = (request: FastifyRequest, pending: Promise<SessionRecord | null>) => {
    (request as SessionRequest)[kPending] = pending;
  };

  app.decorateRequest('getSession', function (this: FastifyRequest) {
    const req = this as SessionRequest;
    if (!req[kPending]) {
      // An answer that depends on the session is this shopper's alone: no browser or proxy may keep it.
      const reply = req[kReply];
      if (reply && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      const raw = requestCookies(req)[sessionCookie];
      const sid = raw ? signers.unsign(SESSION_COOKIE, raw) : null;
      req[kPending] = sid ? sessions.load(sid) : Promise.resolve(null);
    }
    return req[kPending];
  });

  app.decorateRequest('ensureSession', async function (this: FastifyRequest) {
    const existing = await this.getSession();
    if (existing) return existing;
    const created = sessions.create();
    setPending(this, created);
    const record = await created;
    setCookie(this, this.server.replyOf(this), record.sid);
    return record;
  });

  app.decorateRequest('regenerateSession', async function (this: FastifyRequest, data: SessionData) {
    const old = await this.getSession();
    const record = await sessions.create(data);
    if (old) await sessions.destroy(old.sid);
    setPending(this, Promise.resolve(record));
    setCookie(this, this.server.replyOf(this), record.sid);
    return record;
  });

  app.decorateRequest('destroySession', async function (this: FastifyRequest) {
    const old = await this.getSession();
    if (old) await sessions.destroy(old.sid);
    setPending(this, Promise.resolve(null));
    writeCookie(this.server.replyOf(this), sessionCookie, '', clearedCookieOptions(this, secureCookies));
  });

  app.decorateRequest('readSignedCookie', function (this: FastifyRequest, base: string) {
    const raw = requestCookies(this)[cookieName(base, secureCookies)];
    return raw ? signers.unsign(base, raw) : null;
  });

  app.decorateRequest('setSignedCookie', function (this: FastifyRequest, base: string, value: string, maxAgeMs: number) {
    writeCookie(this.server.replyOf(this), cookieName(base, secureCookies), signers.sign(base, value), cookieOptions(this, secureCookies, maxAgeMs));
  });

  app.decorateRequest('saveSession', async function (this: FastifyRequest, data: SessionData) {
    const rec = await this.ensureSession();
    rec.data = data;
    await sessions.save(rec.sid, data);
  });

  // Requests need their reply to set cookies from inside services' call sites.
  app.decorate('replyOf', (request: FastifyRequest) => {
    const reply = (request as SessionRequest)[kReply];
    if (!reply) throw new Error('reply not bound to request');
    return reply;
  });
  app.addHook('onRequest', (request, reply, done) => {
    (request as SessionRequest)[kReply] = reply;
    done();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    replyOf(request: FastifyRequest): FastifyReply;
    /** Name-bound cookie signing (tests and benches sign cookies the way the shop does). */
    cookieSigners: CookieSigners;
  }
}
