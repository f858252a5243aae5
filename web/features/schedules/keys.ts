// Query keys of the schedule screens (docs/product/schedules.md): kept in the feature so that the
// public verification page loads nothing of the signed-in app's key factories.
export const scheduleKeys = {
  all: ['schedules'] as const,
  ofCollection: (collectionId: number) => [...scheduleKeys.all, 'collection', collectionId] as const,
  verify: (code: string) => [...scheduleKeys.all, 'verify', code] as const,
};
