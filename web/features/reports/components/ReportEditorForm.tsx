import { Alert, Button, Checkbox, Divider, Group, Loader, Stack, Text } from '@mantine/core';
import { IconEye, IconFileTypePdf } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { SampleDetail } from '../../../../common/contracts/samples';
import { normalizeStatus } from '../../../../common/domain/samples';
import { ElementEditor } from './ElementEditor';
import { ReportContentEditor } from './ReportContentEditor';
import { UnchangedWarning } from './UnchangedWarning';
import type { useReportEditor } from './use-report-editor';

/** Offered beside Generate: a public report next to a sample still in Review confuses the client. */
export function CompleteOption({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <Checkbox
      name="markCompleted"
      label="Also mark the sample Completed"
      description="The client then sees the report and the Completed status together. When the lab requires a second expert's review, the sample is completed when the report is approved."
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  );
}

/**
 * The whole report editor, the same in the 'Generate Analysis Report' dialog and on the sample
 * page: the valuation sections, the element table, 'Also mark the sample Completed', the
 * 'nothing has changed' warning and Generate. `onCancel` adds a Cancel button (the dialog);
 * `canIssue` false leaves the form without Generate (a withdrawn report).
 */
export function ReportEditorForm({
  sample,
  editor,
  idPrefix,
  onIssued,
  onCancel,
  canIssue = true,
}: {
  sample: SampleDetail;
  editor: ReturnType<typeof useReportEditor>;
  idPrefix: string;
  onIssued?: () => void;
  onCancel?: () => void;
  canIssue?: boolean;
}) {
  const [complete, setComplete] = useState(false);
  const { draft, pending } = editor;
  // A draft sent back keeps its author's 'Also mark the sample Completed' with the rest of it.
  const returnedWithComplete = pending?.state === 'returned' && pending.completeOnApproval;
  useEffect(() => {
    setComplete(returnedWithComplete);
  }, [editor.draftKey, returnedWithComplete]);
  // Issued here for review: the form gives way to a note, which takes the focus the Generate button had.
  const [issuedHere, setIssuedHere] = useState(false);
  const waitingNote = useRef<HTMLDivElement>(null);
  const waiting = pending?.state === 'awaiting-review';
  useEffect(() => {
    if (issuedHere && waiting) waitingNote.current?.focus();
  }, [issuedHere, waiting]);
  if (!draft)
    return (
      <Group role="status">
        <Loader size="sm" />
        <Text>Loading report...</Text>
      </Group>
    );

  // A revision waits for a second expert: issuing again is refused until it is approved or sent back.
  if (waiting)
    return (
      <Stack gap="md">
        <Alert ref={waitingNote} tabIndex={-1} color="blue" variant="light" title="With a second expert">
          Revision {pending.revision} of this report is waiting for a second expert, who reads it in
          &lsquo;Review this report&rsquo; on the sample page. It can be changed and issued again once it has
          been approved or sent back.
        </Alert>
        {onCancel ? (
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Close
            </Button>
          </Group>
        ) : null}
      </Stack>
    );

  const submit = async (confirmed = false) => {
    if (await editor.issue({ markCompleted: complete, confirmed })) {
      setComplete(false);
      setIssuedHere(true);
      onIssued?.();
    }
  };

  return (
    // Remounted on each fresh load: the rich-text editors read their content once.
    <Stack gap="md" key={editor.draftKey}>
      {pending?.state === 'returned' ? (
        <Alert color="orange" variant="light" p="sm">
          The editor holds revision {pending.revision} as it was sent back: change what the reviewer asks and
          issue it again.
        </Alert>
      ) : null}
      <ReportContentEditor
        draft={draft}
        errors={editor.errors}
        files={sample.files}
        onChange={editor.update}
        after={
          <Stack gap="sm">
            <Divider />
            <Text size="sm" c="gray.7">
              The element table may stay empty when the report gives a valuation, authenticity or condition
              verdict.
            </Text>
            <ElementEditor
              rows={draft.rows}
              onChange={(rows) => editor.update({ rows })}
              idPrefix={idPrefix}
            />
            {editor.formError ? (
              <Alert color="red" role="alert" variant="light" p="xs">
                {editor.formError}
              </Alert>
            ) : null}
          </Stack>
        }
      />
      <Divider />
      {canIssue && normalizeStatus(sample.status) !== 'completed' ? (
        <CompleteOption checked={complete} onChange={setComplete} />
      ) : null}
      {editor.warnUnchanged && sample.reportCode ? (
        <UnchangedWarning
          code={sample.reportCode}
          onConfirm={() => void submit(true)}
          onCancel={editor.dismissWarning}
        />
      ) : null}
      {canIssue || onCancel ? (
        <Group justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          ) : null}
          {canIssue ? (
            <Button
              variant="default"
              leftSection={<IconEye size={16} aria-hidden="true" />}
              loading={editor.previewing}
              onClick={() => void editor.preview()}
            >
              Preview PDF
            </Button>
          ) : null}
          {canIssue ? (
            <Button
              leftSection={<IconFileTypePdf size={16} aria-hidden="true" />}
              loading={editor.isPending}
              onClick={() => void submit()}
            >
              Generate PDF Report
            </Button>
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}
