import { cn } from '../../lib/cn';
import { postalAddressLines, type PostalAddressFields } from '../../../common/domain/address-format';

/** An address block: one line each, the name (when given) in bold. */
export function PostalAddress({
  address,
  className,
  testId,
}: {
  address: PostalAddressFields;
  className?: string;
  testId?: string;
}) {
  const lines = postalAddressLines(address);
  const name = address.name?.trim();
  return (
    <address className={cn('not-italic', className)} data-testid={testId}>
      {lines.map((line, i) => (
        <span key={i} className={cn('block', name && line === name && 'font-semibold')}>
          {line}
        </span>
      ))}
    </address>
  );
}
