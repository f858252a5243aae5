import { useEffect } from 'react';

const SITE = 'Heritage Valuation Laboratory';
const DEFAULT_DESCRIPTION =
  'Expert valuations, authenticity verification and condition reports for antiques and collectibles.';

/** Each page sets its own title and meta description. */
export function usePageTitle(title: string, description?: string) {
  useEffect(() => {
    document.title = title ? `${title} | ${SITE}` : SITE;
    // A page without its own description must not keep the previous page's.
    document
      .querySelector('meta[name="description"]')
      ?.setAttribute(
        'content',
        description ?? (title ? `${title}: ${DEFAULT_DESCRIPTION}` : DEFAULT_DESCRIPTION),
      );
  }, [title, description]);
}
