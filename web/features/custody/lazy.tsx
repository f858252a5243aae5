import { lazy, Suspense } from 'react';
import type { SampleCustodyPanelProps } from '../../components/slots';

// The router passes these into the sample page and the admin dashboard; loading them lazily keeps
// the custody forms out of the other screens' code (docs/product/custody.md). Nothing but React is
// imported here: this file is part of every page's first load (scripts/check-web-size.mjs).

const SampleCustodyPanelChunk = lazy(async () => ({
  default: (await import('./components/SampleCustodyPanel')).SampleCustodyPanel,
}));
const InventoryTabChunk = lazy(async () => ({
  default: (await import('./components/CustodyTabs')).InventoryTab,
}));
const LocationsTabChunk = lazy(async () => ({
  default: (await import('./components/CustodyTabs')).LocationsTab,
}));

export function LazySampleCustodyPanel(props: SampleCustodyPanelProps) {
  return (
    <Suspense fallback={null}>
      <SampleCustodyPanelChunk {...props} />
    </Suspense>
  );
}

export function LazyInventoryTab() {
  return (
    <Suspense fallback={null}>
      <InventoryTabChunk />
    </Suspense>
  );
}

export function LazyLocationsTab() {
  return (
    <Suspense fallback={null}>
      <LocationsTabChunk />
    </Suspense>
  );
}
