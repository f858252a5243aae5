import { Fieldset, NumberInput, SimpleGrid, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { LabSettings } from '../../../../common/contracts/lab';
import { SERVICES, type ServiceField } from '../../../../common/domain/samples';

// The price list part of the lab settings form (docs/product/quotes.md).

export type PriceValues = {
  prices: Record<ServiceField, string>;
  urgentSurchargePercent: number | string;
  currency: string;
};

export const toPriceValues = (s: LabSettings): PriceValues => ({
  prices: Object.fromEntries(SERVICES.map((x) => [x.field, String(s.prices[x.field])])) as Record<
    ServiceField,
    string
  >,
  urgentSurchargePercent: s.urgentSurchargePercent,
  currency: s.currency,
});

export function PriceListFields<V extends PriceValues>({ form }: { form: UseFormReturnType<V> }) {
  const currency = form.getValues().currency;
  return (
    <Fieldset legend="Price list">
      <Text size="sm" c="gray.7" mb="sm">
        Quotes are pre-filled from these prices; staff can still edit each line.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {SERVICES.map((s) => (
          <TextInput
            key={s.field}
            id={`lab-price-${s.field}`}
            name={`prices.${s.field}`}
            label={`${s.label} (${currency})`}
            inputMode="decimal"
            {...form.getInputProps(`prices.${s.field}`)}
          />
        ))}
        <NumberInput
          id="lab-urgentSurchargePercent"
          name="urgentSurchargePercent"
          label="Urgent surcharge (%)"
          min={0}
          max={500}
          allowDecimal={false}
          {...form.getInputProps('urgentSurchargePercent')}
        />
        <TextInput
          id="lab-currency"
          name="currency"
          label="Currency"
          description="Three-letter code, e.g. EUR, USD, GBP"
          maxLength={3}
          {...form.getInputProps('currency')}
        />
      </SimpleGrid>
    </Fieldset>
  );
}
