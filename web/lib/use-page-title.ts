import { useEffect } from 'react';

const SITE = 'Heritage Valuation Laboratory';

/** Each page sets its own title and meta description. */
export function usePageTitle(title: string, description?: string) {
  useEffect(() => {
    document.title = title ? `${title} | ${SITE}` : SITE;
    if (description) document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [title, description]);
}
