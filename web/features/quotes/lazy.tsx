import { lazy, Suspense } from 'react';
import type { SampleQuotePanelProps, SendQuoteDialogProps } from '../../components/slots';

// The router passes these into the samples, staff and admin screens; loading them lazily keeps the
// quote forms (and the contracts' zod schemas they validate with) out of the public pages' code.

const SampleQuotePanelChunk = lazy(async () => ({
  default: (await import('./components/SampleQuotePanel')).SampleQuotePanel,
}));
const SendQuoteDialogChunk = lazy(async () => ({
  default: (await import('./components/SendQuoteDialog')).SendQuoteDialog,
}));

export function LazySampleQuotePanel(props: SampleQuotePanelProps) {
  return (
    <Suspense fallback={null}>
      <SampleQuotePanelChunk {...props} />
    </Suspense>
  );
}

export function LazySendQuoteDialog(props: SendQuoteDialogProps) {
  return (
    <Suspense fallback={null}>
      <SendQuoteDialogChunk {...props} />
    </Suspense>
  );
}
