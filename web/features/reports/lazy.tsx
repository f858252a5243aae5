import { Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { ReportDialogProps, SampleReportPanelProps } from '../../components/slots';

// The editor (tiptap) is heavy: these wrappers load the dialog and the panels only when a screen
// renders them, so the router can pass them into other features without pulling the editor (or the
// review panel's forms and schemas) into the public pages' code.

const ReportDialogChunk = lazy(async () => ({
  default: (await import('./components/ReportDialog')).ReportDialog,
}));
const ReportReviewPanelChunk = lazy(async () => ({
  default: (await import('./components/ReportReviewPanel')).ReportReviewPanel,
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

/** The second review's panel above the editor panel, each in its own chunk. */
export function LazySampleReportPanel(props: SampleReportPanelProps) {
  return (
    <Stack gap="lg">
      <Suspense fallback={null}>
        <ReportReviewPanelChunk sampleId={props.sampleId} />
      </Suspense>
      <Suspense fallback={null}>
        <SampleReportPanelChunk {...props} />
      </Suspense>
    </Stack>
  );
}
