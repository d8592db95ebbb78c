import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { createJobRunner } from './jobs/job-runner';
import { createCatalogService } from './modules/catalog/catalog.service';
import { createMailer, type Mailer } from './modules/mail/mail.service';
import { createSeoService } from './modules/seo/seo.service';
import { createSessionService } from './modules/session/session.service';
import { createSettingsService } from './modules/settings/settings.service';

export interface ServiceOverrides {
  mailer?: Mailer;
}

/** Wires every capability's service once; modules reach each other only through these. */
export function createServices(config: Config, database: Database, log: FastifyBaseLogger, overrides: ServiceOverrides = {}) {
  const { db } = database;
  const settings = createSettingsService(config);
  const catalog = createCatalogService(db);
  const sessions = createSessionService(db);
  const mailer =
    overrides.mailer ??
    createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: path.join(config.DATA_DIR, 'outbox') });
  const jobs = createJobRunner(log);
  const seo = createSeoService({ catalog, settings, publicUrl: config.PUBLIC_URL });

  jobs.every('prune-sessions', 60 * 60 * 1000, () => sessions.pruneExpired());

  return { config, database, db, settings, catalog, sessions, mailer, jobs, seo };
}

export type Services = ReturnType<typeof createServices>;
