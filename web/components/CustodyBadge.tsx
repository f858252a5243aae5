import { Badge } from '@mantine/core';
import {
  IconArchive,
  IconHourglass,
  IconPackageImport,
  IconTruckDelivery,
  IconUserCheck,
  IconUserSearch,
} from '@tabler/icons-react';
import { WHOLE_LABEL_BADGE } from './badge-styles';
import { CUSTODY_STATE_LABELS, type CustodyState, normalizeCustodyState } from '../../common/domain/custody';

const STYLE: Record<CustodyState, { color: string; Icon: typeof IconArchive }> = {
  'awaiting-arrival': { color: 'gray', Icon: IconHourglass },
  received: { color: 'blue', Icon: IconPackageImport },
  'in-storage': { color: 'indigo', Icon: IconArchive },
  'with-expert': { color: 'violet', Icon: IconUserSearch },
  returned: { color: 'teal', Icon: IconTruckDelivery },
  collected: { color: 'teal', Icon: IconUserCheck },
};

/** Where the physical item is (docs/product/custody.md), beside the workflow status badge. */
export function CustodyBadge({ state }: { state: string | null | undefined }) {
  const s = normalizeCustodyState(state);
  const { color, Icon } = STYLE[s];
  return (
    <Badge
      color={color}
      variant="outline"
      leftSection={<Icon size={14} aria-hidden="true" />}
      styles={WHOLE_LABEL_BADGE}
      data-custody={s}
      title="Where the item is"
    >
      {CUSTODY_STATE_LABELS[s]}
    </Badge>
  );
}
