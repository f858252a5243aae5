import { useState } from 'react';
import { toast } from '../../lib/toast';
import { discardDraft, draftKey, loadDraft, type SampleDraft, saveDraft } from './draft';

export const DRAFT_FAILED = 'Failed to save draft. Please try again.';

/** The signed-in person's saved draft, read once when the form opens, with save and discard. */
export function useSampleDraft(userId: number | undefined) {
  const key = draftKey(userId);
  const [draft, setDraft] = useState<SampleDraft | null>(() => loadDraft(key));

  const save = (content: Omit<SampleDraft, 'savedAt'>) => {
    try {
      setDraft(saveDraft(key, content));
      toast.success('Draft Saved', 'Your submission was saved in this browser.');
    } catch {
      toast.error('Error', DRAFT_FAILED);
    }
  };

  const discard = () => {
    discardDraft(key);
    setDraft(null);
    toast.info('Draft discarded');
  };

  /** After a successful submission the draft has served its purpose. */
  const forget = () => discardDraft(key);

  return { draft, save, discard, forget };
}
