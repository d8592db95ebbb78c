import { expect, test } from 'vitest';
import { shopSettingsSchema } from '../../../common/contracts/settings';
import { loadConfig } from '../../config';
import { createSettingsService } from './settings.service';

const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/fifty-settings-test', LOG_LEVEL: 'silent' } as const;

test('support address and social links are settings; unset social links are left out', () => {
  const defaults = createSettingsService(loadConfig({ ...base }), new Date('2026-11-23T12:00:00Z'));
  const pub = shopSettingsSchema.parse(defaults.publicSettings);
  expect(pub.supportEmail).toBe('support@fifty.local');
  expect(pub.socialLinks).toEqual([]);
  expect(pub.season).toEqual({ name: 'Fall', year: 2026 });

  const set = createSettingsService(
    loadConfig({
      ...base,
      SUPPORT_EMAIL: 'help@shop.example',
      SOCIAL_INSTAGRAM_URL: 'https://instagram.com/shop',
      SOCIAL_X_URL: 'https://x.com/shop',
    }),
  );
  expect(set.publicSettings.supportEmail).toBe('help@shop.example');
  expect(set.publicSettings.socialLinks).toEqual([
    { label: 'Instagram', href: 'https://instagram.com/shop' },
    { label: 'X', href: 'https://x.com/shop' },
  ]);
  expect(() => loadConfig({ ...base, SUPPORT_EMAIL: 'not-an-address' })).toThrow(/SUPPORT_EMAIL/);
});

test('the home country is a setting: the domestic rates apply there (ADR 023)', () => {
  expect(createSettingsService(loadConfig({ ...base })).publicSettings.homeCountry).toBe('US');
  const uk = createSettingsService(loadConfig({ ...base, SHOP_COUNTRY: 'GB' }));
  expect(shopSettingsSchema.parse(uk.publicSettings).homeCountry).toBe('GB');
  expect(uk.homeCountry).toBe('GB');
});
