import { Button, Container, Group, SimpleGrid, Skeleton, Stack, Tabs, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { StatCard } from '../../../components/StatCard';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import type { CustodyTabsSlots, SendQuoteDialogSlot } from '../../../components/slots';
import { ScanBox } from '../../../components/ScanBox';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { analyticsQuery, inquiriesQuery, staffUsersQuery, useRefreshAdminData } from '../api';
import { InquiriesTab } from './InquiriesTab';
import { OutboxTab } from './OutboxTab';
import { reason } from './messages';
import { SamplesTab } from './SamplesTab';
import { AwaitingReviewCard } from '../../../components/AwaitingReviewCard';
import { SettingsTab } from './SettingsTab';
import { StaffTab } from './StaffTab';
import { CHART_CARD_MIN_HEIGHT } from './chart-size';

/** Below this width the charts are folded away (Mantine's `sm` breakpoint). */
export const NARROW_SCREEN = '(max-width: 47.99em)';

const AnalyticsCharts = lazy(async () => ({ default: (await import('./AnalyticsCharts')).AnalyticsCharts }));
const AuditTab = lazy(async () => ({ default: (await import('./AuditTab')).AuditTab }));

/** The charts' place while their figures and code load: the tabs below stay where they are. */
function ChartsPlaceholder() {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} role="status" aria-label="Loading charts">
      <Skeleton h={CHART_CARD_MIN_HEIGHT} radius="md" />
      <Skeleton h={CHART_CARD_MIN_HEIGHT} radius="md" />
    </SimpleGrid>
  );
}

/**
 * /admin (docs/product/screens.md): staff see the counters and the Samples tab; admins everything.
 * `quoteDialog` is the quotes feature's 'Send Quote' dialog, passed in by the router.
 */
export function AdminDashboardPage({
  quoteDialog,
  inventoryTab: InventoryTab,
  locationsTab: LocationsTab,
}: { quoteDialog?: SendQuoteDialogSlot } & CustodyTabsSlots = {}) {
  usePageTitle('Admin Dashboard');
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  const refreshAdminData = useRefreshAdminData();
  const analytics = useQuery(analyticsQuery());
  const staff = useQuery({ ...staffUsersQuery(), enabled: isAdmin });
  const inquiries = useQuery({ ...inquiriesQuery(1), enabled: isAdmin });
  // On a phone the two charts would push the tabs (the work) some 1300 px down: they wait behind a
  // button there. Decided before the first paint, so nothing jumps.
  const narrow = useMediaQuery(NARROW_SCREEN, false, { getInitialValueInEffect: false });
  const [chartsShown, setChartsShown] = useState(false);
  // A link to an audit view (its filters are in the URL) opens on the Audit tab.
  const [params] = useSearchParams();
  const firstTab = isAdmin && params.get('tab') === 'audit' ? 'audit' : 'samples';
  const showCharts = !narrow || chartsShown;

  const refresh = async () => {
    await refreshAdminData();
    toast.success('Refreshed', 'Data reloaded');
  };

  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end">
          <Title order={1}>Admin Dashboard</Title>
          <ScanBox />
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} aria-hidden="true" />}
            onClick={refresh}
          >
            Refresh
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: isAdmin ? 6 : 4 }}>
          <StatCard
            label="Total Samples"
            value={analytics.data?.totalSamples}
            loading={analytics.isPending}
          />
          <StatCard
            label="Active Samples"
            value={analytics.data?.activeSamples}
            loading={analytics.isPending}
          />
          <StatCard
            label="Completed"
            value={analytics.data?.completedSamples}
            loading={analytics.isPending}
          />
          <StatCard label="Overdue" value={analytics.data?.overdueSamples} loading={analytics.isPending} />
          {isAdmin ? (
            <>
              <StatCard label="Total Staff" value={staff.data?.length} loading={staff.isPending} />
              <StatCard
                label="Contact Inquiries"
                value={inquiries.data?.total ?? undefined}
                loading={inquiries.isPending}
              />
            </>
          ) : null}
        </SimpleGrid>
        {analytics.isError ? (
          <LoadError onRetry={() => analytics.refetch()} retrying={analytics.isFetching}>
            {`Failed to load the figures: ${reason(analytics.error)}`}
          </LoadError>
        ) : null}
        {narrow ? (
          <Button
            variant="default"
            onClick={() => setChartsShown((shown) => !shown)}
            aria-expanded={chartsShown}
            aria-controls="admin-charts"
          >
            {chartsShown ? 'Hide charts' : 'Show charts'}
          </Button>
        ) : null}
        {showCharts ? (
          <div id="admin-charts">
            {analytics.isPending ? <ChartsPlaceholder /> : null}
            {analytics.data ? (
              <Suspense fallback={<ChartsPlaceholder />}>
                <AnalyticsCharts data={analytics.data} />
              </Suspense>
            ) : null}
          </div>
        ) : null}
        <Tabs defaultValue={firstTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="samples">Samples</Tabs.Tab>
            {InventoryTab ? <Tabs.Tab value="inventory">Inventory</Tabs.Tab> : null}
            {isAdmin ? (
              <>
                {LocationsTab ? <Tabs.Tab value="locations">Locations</Tabs.Tab> : null}
                <Tabs.Tab value="staff">Staff</Tabs.Tab>
                <Tabs.Tab value="settings">Settings</Tabs.Tab>
                <Tabs.Tab value="inquiries">Inquiries</Tabs.Tab>
                <Tabs.Tab value="outbox">Outbox</Tabs.Tab>
                <Tabs.Tab value="audit">Audit</Tabs.Tab>
              </>
            ) : null}
          </Tabs.List>
          <Tabs.Panel value="samples" pt="md">
            <AwaitingReviewCard mb="lg" />
            <SamplesTab isAdmin={isAdmin} userId={user?.id ?? 0} quoteDialog={quoteDialog} />
          </Tabs.Panel>
          {InventoryTab ? (
            <Tabs.Panel value="inventory" pt="md">
              <InventoryTab />
            </Tabs.Panel>
          ) : null}
          {isAdmin ? (
            <>
              {LocationsTab ? (
                <Tabs.Panel value="locations" pt="md">
                  <LocationsTab />
                </Tabs.Panel>
              ) : null}
              <Tabs.Panel value="staff" pt="md">
                <StaffTab />
              </Tabs.Panel>
              <Tabs.Panel value="settings" pt="md">
                <SettingsTab />
              </Tabs.Panel>
              <Tabs.Panel value="inquiries" pt="md">
                <InquiriesTab />
              </Tabs.Panel>
              <Tabs.Panel value="outbox" pt="md">
                <OutboxTab />
              </Tabs.Panel>
              <Tabs.Panel value="audit" pt="md">
                <Suspense fallback={<RowsSkeleton label="Loading the audit trail..." rows={5} />}>
                  <AuditTab />
                </Suspense>
              </Tabs.Panel>
            </>
          ) : null}
        </Tabs>
      </Stack>
    </Container>
  );
}
