import { useCallback, useState } from 'react';
import { useParams } from 'wouter';
import { DrawEntry } from '../features/draws/draw-entry';
import { useDocumentTitle } from '../lib/use-document-title';
import { useShopSettings } from '../lib/use-shop-settings';

/** /draw-entry/:token: the link mailed to a draw's entrant (docs/draw.md); the token is the only key to the entry. */
export default function DrawEntryPage() {
  const { token = '' } = useParams<{ token: string }>();
  const { shopName } = useShopSettings();
  const [title, setTitle] = useState<string | null>(null);
  useDocumentTitle(title ? `${title} | ${shopName}` : null);
  const onTitle = useCallback((t: string) => setTitle(t), []);
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 md:px-6 md:py-12">
      <DrawEntry token={token} onTitle={onTitle} />
    </div>
  );
}
