import type { SampleDetail } from '../../common/contracts/samples';
import type { ComponentType } from 'react';

// Cross-feature UI is composed by web/app/routes.tsx and passed down as props, so no feature
// imports another (docs/architecture.md). These are the shapes of those slots.

/** The staff 'Generate Analysis Report' dialog (reports feature), opened from the staff table. */
export type ReportDialogProps = {
  sampleId: number;
  opened: boolean;
  onClose: () => void;
};
export type ReportDialogSlot = ComponentType<ReportDialogProps>;

/** The Report Elements editor and report actions on the sample detail page (staff/admin). */
export type SampleReportPanelProps = {
  sampleId: number;
  reportCode: string | null;
};
export type SampleReportPanelSlot = ComponentType<SampleReportPanelProps>;

/** The quote, turnaround and invoice card on the sample detail page (quotes feature). */
export type SampleQuotePanelProps = {
  sample: SampleDetail;
};
export type SampleQuotePanelSlot = ComponentType<SampleQuotePanelProps>;

/** The lab's 'Send Quote' dialog (quotes feature), opened from the staff table and the admin Samples tab. */
export type SendQuoteDialogProps = {
  sampleId: number;
  onClose: () => void;
};
export type SendQuoteDialogSlot = ComponentType<SendQuoteDialogProps>;

/** The custody card on the sample detail page (custody feature): state, history, intake, moves, return, label. */
export type SampleCustodyPanelProps = {
  sample: SampleDetail;
};
export type SampleCustodyPanelSlot = ComponentType<SampleCustodyPanelProps>;

/** The admin dashboard's custody tabs (custody feature): Inventory (staff and admins), Locations (admins). */
export type CustodyTabsSlots = {
  inventoryTab?: ComponentType;
  locationsTab?: ComponentType;
};

/** The submit form's optional "Add to collection…" selector (collections feature): the chosen id as text, '' for none. */
export type CollectionFieldProps = { value: string; onChange: (value: string) => void };
export type CollectionFieldSlot = ComponentType<CollectionFieldProps>;

/** The customer dashboard's Collections card (collections feature). */
export type CollectionsSectionSlot = ComponentType;

/** The collection page's Schedule card (schedules feature): the current schedule, its download, and for the lab "Issue schedule". */
export type CollectionScheduleProps = {
  collectionId: number;
  /** Items with an issued, not withdrawn report, of all items: the lab's button waits for all. */
  progress: { reported: number; total: number };
};
export type CollectionScheduleSlot = ComponentType<CollectionScheduleProps>;
