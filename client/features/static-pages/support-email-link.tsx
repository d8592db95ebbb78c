import { useShopSettings } from '../../lib/use-shop-settings';

/** The support inbox (SUPPORT_EMAIL, from the shop's settings) as a mailto link. */
export function SupportEmailLink() {
  const { supportEmail } = useShopSettings();
  return (
    <a
      href={`mailto:${supportEmail}`}
      className="font-semibold underline underline-offset-4 hover:no-underline"
    >
      {supportEmail}
    </a>
  );
}
