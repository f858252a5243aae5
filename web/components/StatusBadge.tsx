import { Badge } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconClockHour4,
  IconEye,
  IconFlask,
  IconInbox,
} from '@tabler/icons-react';
import { WHOLE_LABEL_BADGE } from './badge-styles';
import { normalizeStatus, SAMPLE_STATUS_LABELS, type SampleStatus } from '../../common/domain/samples';

const STYLE: Record<SampleStatus, { color: string; variant: string; Icon: typeof IconInbox }> = {
  submitted: { color: 'gray', variant: 'light', Icon: IconInbox },
  'in-progress': { color: 'blue', variant: 'light', Icon: IconClockHour4 },
  analysis: { color: 'violet', variant: 'light', Icon: IconFlask },
  review: { color: 'yellow', variant: 'light', Icon: IconEye },
  completed: { color: 'teal', variant: 'filled', Icon: IconCircleCheck },
  'on-hold': { color: 'red', variant: 'filled', Icon: IconAlertTriangle },
};

/** The sample status badge of docs/product/statuses.md (unknown values display as submitted), with its icon. */
export function StatusBadge({
  status,
  withIcon = true,
}: {
  status: string | null | undefined;
  withIcon?: boolean;
}) {
  const s = normalizeStatus(status);
  const { color, variant, Icon } = STYLE[s];
  return (
    <Badge
      color={color}
      variant={variant}
      leftSection={withIcon ? <Icon size={14} aria-hidden="true" /> : undefined}
      styles={WHOLE_LABEL_BADGE}
      data-status={s}
    >
      {SAMPLE_STATUS_LABELS[s]}
    </Badge>
  );
}

export function StatusIcon({ status, size = 28 }: { status: string | null | undefined; size?: number }) {
  const s = normalizeStatus(status);
  const { Icon } = STYLE[s];
  return <Icon size={size} aria-hidden="true" />;
}
