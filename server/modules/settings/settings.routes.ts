import type { FastifyInstance } from 'fastify';
import type { SettingsService } from './settings.service';

export async function settingsRoutes(app: FastifyInstance, opts: { settings: SettingsService }): Promise<void> {
  const body = JSON.stringify(opts.settings.publicSettings);
  app.get('/api/settings', async (_request, reply) => {
    reply.type('application/json; charset=utf-8');
    return body;
  });
}
