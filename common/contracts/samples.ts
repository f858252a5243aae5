import { z } from 'zod';

// The sample as it leaves the server (spec §3). Dates are ISO-8601 strings.

const isoDate = z.string();
const text = z.string().nullable();

export const personName = z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() });
export type PersonName = z.infer<typeof personName>;

export const sampleSchema = z.object({
  id: z.number(),
  userId: z.number(),
  submitterName: z.string(),
  submitterEmail: z.string(),
  submitterPhone: text,
  submitterCountry: text,
  isPersonalSubmission: z.boolean(),
  representativeEmail: text,
  relationshipToOwner: text,
  itemName: z.string(),
  category: z.string(),
  estimatedAge: text,
  description: z.string(),
  dimensions: text,
  weight: text,
  materials: text,
  expertValuation: z.boolean(),
  authenticityCheck: z.boolean(),
  conditionAssessment: z.boolean(),
  provenanceResearch: z.boolean(),
  purposeOfValuation: text,
  urgencyLevel: z.string(),
  estimatedValueRange: text,
  specialInstructions: text,
  isRepresentative: z.boolean(),
  representativeName: text,
  representativeRelation: text,
  clientName: text,
  status: z.string(),
  submissionDate: isoDate,
  lastUpdated: isoDate,
  assignedStaffId: z.number().nullable(),
  reportGenerated: z.boolean(),
  reportGeneratedAt: isoDate.nullable(),
  reportGeneratedBy: z.number().nullable(),
  reportCode: text,
  reportRevokedAt: isoDate.nullable(),
  reportRevokedReason: text,
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Sample = z.infer<typeof sampleSchema>;

/** Lists for staff and admins also carry the owner's and the assigned staff member's names. */
export const sampleListItem = sampleSchema.extend({
  user: personName.nullable(),
  assignedStaff: personName.nullable(),
});
export type SampleListItem = z.infer<typeof sampleListItem>;

export const sampleFileSchema = z.object({
  id: z.number(),
  sampleId: z.number(),
  fileName: z.string(),
  originalName: z.string(),
  fileType: z.string(),
  fileSize: z.number(),
  fileCategory: z.enum(['photo', 'document']),
  uploadDate: isoDate,
});
export type SampleFile = z.infer<typeof sampleFileSchema>;

export const reportElementSchema = z.object({
  id: z.number(),
  sampleId: z.number(),
  element: z.string(),
  percentage: z.number(),
  purity: text,
  quality: text,
  notes: text,
  createdAt: isoDate,
});
export type ReportElement = z.infer<typeof reportElementSchema>;

export const statusHistoryEntry = z.object({
  id: z.number(),
  status: z.string(),
  comment: text,
  createdAt: isoDate,
  updatedBy: z.object({ id: z.number(), firstName: text, lastName: text }).nullable(),
});
export type StatusHistoryEntry = z.infer<typeof statusHistoryEntry>;

/** GET /api/samples/{id} (CONTRACT §2). */
export const sampleDetail = sampleListItem.extend({
  files: z.array(sampleFileSchema),
  reportElements: z.array(reportElementSchema),
  statusHistory: z.array(statusHistoryEntry),
});
export type SampleDetail = z.infer<typeof sampleDetail>;
