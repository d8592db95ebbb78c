import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../common/contracts/api-error';
import { shopSettingsSchema } from '../../../common/contracts/settings';
import type { SettingsService } from './settings.service';

export async function settingsRoutes(app: FastifyInstance, opts: { settings: SettingsService }): Promise<void> {
  // Encoded by the contract like every other answer (a field the contract lacks never leaves the server).
  const { publicSettings } = opts.settings;
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/settings', { schema: { response: { 200: shopSettingsSchema, ...errorResponses } } }, async () => publicSettings);
}
