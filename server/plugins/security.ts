import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import type { Config } from '../config';
import { forbidden } from './http-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths called by other servers (signed by them), not by browsers on our pages. */
const ORIGIN_EXEMPT = [/^\/api\/webhooks\//];

function ownOrigins(config: Config, request: FastifyRequest): Set<string> {
  const origins = new Set<string>();
  if (config.PUBLIC_URL) origins.add(new URL(config.PUBLIC_URL).origin);
  const host = request.headers['x-forwarded-host'] ?? request.headers.host;
  if (host) origins.add(`${request.protocol}://${host}`);
  return origins;
}

export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const stripe = Boolean(config.STRIPE_SECRET_KEY);
  const s3 = config.S3_ENDPOINT ? [new URL(config.S3_ENDPOINT).origin] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(stripe ? ['https://js.stripe.com'] : [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...s3, ...(stripe ? ['https://*.stripe.com'] : [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...s3, ...(stripe ? ['https://api.stripe.com'] : [])],
        frameSrc: stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : ["'none'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // HSTS belongs to the TLS terminator; sending it from plain-HTTP self-hosting breaks setups.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });

  // Cross-site request forgery: a state change must come from our own pages.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (ORIGIN_EXEMPT.some((re) => re.test(request.url))) return;
    const origin = request.headers.origin;
    if (origin) {
      if (!ownOrigins(config, request).has(origin)) throw forbidden('Cross-origin request refused');
      return;
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') throw forbidden('Cross-origin request refused');
  });
}
