import { MonitorSmartphone } from 'lucide-react';
import type { AdminDevice } from '../../../common/contracts/admin-devices';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { formatOrderDate } from './order-display';
import { PanelEmpty, PanelError, PanelLoading } from './panel-parts';
import { useAdminDevices, useRevokeDevice } from './use-admin-devices';
import { adminErrorMessage } from './use-admin-session';

/**
 * The browsers that have logged in to this admin (ADR 012). A known device has a login budget of its
 * own, so nobody guessing passwords can slow it down; revoking one makes it a stranger again.
 */
export function DevicesPanel() {
  const devices = useAdminDevices(true);
  const revoke = useRevokeDevice();

  const onRevoke = (device: AdminDevice) =>
    revoke.mutate(device.id, {
      onSuccess: () =>
        toast({
          title: 'Success',
          description: device.current ? 'This device is no longer known' : `${device.lastAgent} revoked`,
        }),
      onError: (error) =>
        toast({ title: 'Error', description: `Failed to revoke the device: ${adminErrorMessage(error)}`, variant: 'destructive' }),
    });

  return (
    <section className="grid grid-cols-1 gap-4" aria-labelledby="admin-devices-heading">
      <h2 id="admin-devices-heading" className="font-display text-2xl uppercase tracking-wide">
        Devices
      </h2>
      <p className="max-w-prose text-sm text-muted">
        Browsers that have logged in here. A known device logs in without waiting behind anyone guessing
        passwords. Revoke any you do not recognise; changing the password revokes them all.
      </p>
      {devices.isLoading ? (
        <PanelLoading>Loading devices...</PanelLoading>
      ) : devices.isError ? (
        <PanelError what="devices" />
      ) : !devices.data || devices.data.length === 0 ? (
        <PanelEmpty icon={MonitorSmartphone}>
          <p className="font-semibold">No known devices</p>
        </PanelEmpty>
      ) : (
        <ul className="grid grid-cols-1 gap-3" aria-label="Known devices">
          {devices.data.map((device) => {
            const lastUsed = formatOrderDate(device.lastUsedAt);
            return (
              <li
                key={device.id}
                className="flex flex-col gap-3 border-2 border-ink bg-white p-4 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="font-semibold break-words">
                    {device.lastAgent}
                    {device.current && (
                      <span className="ml-2 inline-block bg-green-100 px-2 py-0.5 text-xs font-bold text-green-900">
                        This device
                      </span>
                    )}
                  </p>
                  <p className="text-sm">
                    Last used <time dateTime={device.lastUsedAt}>{lastUsed}</time> from network{' '}
                    <code className="font-mono">{device.lastNetwork}</code>
                  </p>
                  <p className="text-xs text-muted">
                    Known since <time dateTime={device.createdAt}>{formatOrderDate(device.createdAt)}</time>
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  className="self-start sm:self-center"
                  aria-label={`Revoke ${device.current ? 'this device' : device.lastAgent}, last used ${lastUsed}`}
                  disabled={revoke.isPending}
                  onClick={() => onRevoke(device)}
                >
                  Revoke
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
