import { Alert, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { MAX_STATUS_COMMENT } from '../../../../common/contracts/workflow';
import { SAMPLE_STATUS_LABELS, type SampleStatus } from '../../../../common/domain/samples';
import { DialogActions } from '../../../components/DialogActions';

export type PendingStatusChange = {
  id: number;
  displayId: string;
  itemName: string;
  from: SampleStatus;
  to: SampleStatus;
};

/**
 * Asks before a status is saved (a stray arrow key on the dropdown must not change what the client
 * sees), with an optional note that goes into the sample's history, which the client reads on the
 * sample page. A note is strongly suggested for On Hold: the client needs to know why.
 */
export function StatusChangeDialog({
  change,
  saving,
  onConfirm,
  onCancel,
}: {
  change: PendingStatusChange | null;
  saving: boolean;
  onConfirm: (note: string) => void;
  onCancel: () => void;
}) {
  const [note, setNote] = useState('');
  const close = () => {
    setNote('');
    onCancel();
  };
  const onHold = change?.to === 'on-hold';
  return (
    <Modal opened={change !== null} onClose={close} title="Change status?" centered>
      {change ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onConfirm(note);
            setNote('');
          }}
        >
          <Stack gap="md">
            <Text>
              {`${change.itemName} (${change.displayId}) will move from ${SAMPLE_STATUS_LABELS[change.from]} to `}
              <Text span fw={700}>
                {SAMPLE_STATUS_LABELS[change.to]}
              </Text>
              . The client sees the change at once.
            </Text>
            <Textarea
              label="Note for the client (optional)"
              name="comment"
              description={
                onHold
                  ? 'Strongly suggested for On Hold: say why work stopped and what the client can do.'
                  : 'Shown in the sample’s history, which the client can read.'
              }
              autosize
              minRows={3}
              maxLength={MAX_STATUS_COMMENT}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
              data-autofocus
            />
            {onHold && !note.trim() ? (
              <Alert color="yellow" variant="light">
                Without a note the client only sees “On Hold”.
              </Alert>
            ) : null}
            <DialogActions onCancel={close} loading={saving}>
              Save status
            </DialogActions>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
