import { Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { ReportDialogProps, SampleReportPanelProps } from '../../components/slots';
import { ReportReviewPanel } from './components/ReportReviewPanel';

// The editor (tiptap) is heavy: these wrappers load the dialog and the panel only when a screen
// renders them, so the router can pass them into other features without pulling the editor in.

const ReportDialogChunk = lazy(async () => ({
  default: (await import('./components/ReportDialog')).ReportDialog,
}));
const SampleReportPanelChunk = lazy(async () => ({
  default: (await import('./components/SampleReportPanel')).SampleReportPanel,
}));

export function LazyReportDialog(props: ReportDialogProps) {
  return (
    <Suspense fallback={null}>
      <ReportDialogChunk {...props} />
    </Suspense>
  );
}

/** The second review's panel (light, loaded at once) above the editor panel. */
export function LazySampleReportPanel(props: SampleReportPanelProps) {
  return (
    <Stack gap="lg">
      <ReportReviewPanel sampleId={props.sampleId} />
      <Suspense fallback={null}>
        <SampleReportPanelChunk {...props} />
      </Suspense>
    </Stack>
  );
}
