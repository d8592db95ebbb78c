import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import type { Config } from './config';
import type { Database } from './db/client';
import { registerErrorHandler } from './plugins/error-handler';
import { registerJsonBody } from './plugins/json-body';
import { registerSecurity } from './plugins/security';
import { registerSession } from './plugins/session';
import { registerStaticClient } from './plugins/static-client';
import { createServices, type ServiceOverrides, type Services } from './services';
import { catalogRoutes } from './modules/catalog/catalog.routes';
import { settingsRoutes } from './modules/settings/settings.routes';

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface AppDeps extends ServiceOverrides {
  database: Database;
  sessionSecret: string;
  /** Built client to serve; defaults to dist/client. */
  clientDir?: string;
  logger?: boolean | object;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? { level: config.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace',
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const services = createServices(config, deps.database, app.log, deps);
  app.decorate('services', services);

  registerErrorHandler(app);
  registerJsonBody(app);
  await registerSecurity(app, config);
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } });
  await registerSession(app, { secret: deps.sessionSecret, sessions: services.sessions });

  app.get('/healthz', async (_request, reply) => {
    try {
      await services.db.execute(sql`select 1`);
      return { status: 'ok', database: services.database.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', message: 'Database unreachable' });
    }
  });

  await app.register(settingsRoutes, { settings: services.settings });
  await app.register(catalogRoutes, { catalog: services.catalog });

  await registerStaticClient(app, {
    clientDir: deps.clientDir ?? (config.CLIENT_DIR ? path.resolve(config.CLIENT_DIR) : path.join(rootDir, 'dist', 'client')),
    uploadsDir: path.join(config.DATA_DIR, 'uploads'),
    seo: services.seo,
  });

  app.addHook('onClose', async () => {
    await services.jobs.stop();
  });
  return app;
}
