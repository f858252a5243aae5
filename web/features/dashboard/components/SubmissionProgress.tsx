import { Group, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCircleDashed } from '@tabler/icons-react';
import { normalizeStatus, type SampleStatus } from '../../../../common/domain/samples';

// The four progress steps of docs/product/statuses.md.
const STEPS: { label: string; doneFor: readonly SampleStatus[] | 'always' }[] = [
  { label: 'Item Submitted', doneFor: 'always' },
  { label: 'Initial Review', doneFor: ['in-progress', 'analysis', 'review', 'completed'] },
  { label: 'Expert Analysis', doneFor: ['analysis', 'review', 'completed'] },
  { label: 'Report Generated', doneFor: ['completed'] },
];

export function progressSteps(status: string) {
  const s = normalizeStatus(status);
  return STEPS.map((step) => ({
    label: step.label,
    done: step.doneFor === 'always' || step.doneFor.includes(s),
  }));
}

export function SubmissionProgress({ status }: { status: string }) {
  const steps = progressSteps(status);
  return (
    <Group gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }} wrap="wrap">
      {steps.map((step) => (
        <Group key={step.label} component="li" gap={6} wrap="nowrap" miw={140}>
          <ThemeIcon
            size={22}
            radius="xl"
            color={step.done ? 'teal' : 'gray'}
            variant={step.done ? 'filled' : 'light'}
          >
            {step.done ? (
              <IconCheck size={14} aria-hidden="true" />
            ) : (
              <IconCircleDashed size={14} aria-hidden="true" />
            )}
          </ThemeIcon>
          <Text size="sm" fw={step.done ? 600 : 400} c={step.done ? undefined : 'dimmed'}>
            {step.label}
            <VisuallyHidden>{step.done ? ' (done)' : ' (pending)'}</VisuallyHidden>
          </Text>
        </Group>
      ))}
    </Group>
  );
}
