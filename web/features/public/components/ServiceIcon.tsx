import { ThemeIcon } from '@mantine/core';
import {
  IconChartLine,
  IconCurrencyDollar,
  IconFileCertificate,
  IconHistory,
  IconLock,
  IconMessages,
  IconShieldCheck,
  IconTools,
  IconZoomCheck,
} from '@tabler/icons-react';
import type { IconName } from '../content';

const ICONS: Record<IconName, typeof IconLock> = {
  valuation: IconCurrencyDollar,
  authenticity: IconShieldCheck,
  condition: IconZoomCheck,
  report: IconFileCertificate,
  provenance: IconHistory,
  market: IconChartLine,
  secure: IconLock,
  consultation: IconMessages,
  restoration: IconTools,
};

export function ServiceIcon({ name, size = 52 }: { name: IconName; size?: number }) {
  const Icon = ICONS[name];
  return (
    <ThemeIcon size={size} radius="md" variant="light" color="gold" aria-hidden="true">
      <Icon size={size * 0.55} stroke={1.6} color="var(--mantine-color-gold-9)" />
    </ThemeIcon>
  );
}
