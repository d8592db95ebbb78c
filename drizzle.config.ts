import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/modules/*/*.tables.ts',
  out: './server/db/migrations',
});
