import { Loader } from '@mantine/core';
import { type ComponentProps, lazy, Suspense } from 'react';

const NotesEditor = lazy(async () => ({ default: (await import('./NotesEditor')).NotesEditor }));

/**
 * The notes editor for screens that show it only now and then (a profile's qualifications, the lab's
 * report texts): its rich-text library (TipTap, about 120 KB gzip) is loaded when it first shows, not
 * with the page. `loading` names the spinner shown meanwhile.
 */
export function LazyNotesEditor({
  loading,
  ...props
}: ComponentProps<typeof NotesEditor> & { loading: string }) {
  return (
    <Suspense fallback={<Loader size="sm" aria-label={loading} />}>
      <NotesEditor {...props} />
    </Suspense>
  );
}
