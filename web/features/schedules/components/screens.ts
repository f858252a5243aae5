// The schedules feature's screens in one lazily loaded chunk (web/app/routes.tsx): the collection
// page's Schedule card and the public /verify-schedule page share it. (A chunk of its own for the
// public page made the bundler split a shared chunk out of the entry, which every public page then
// loaded: 1–1.5 KB more on each, over their ceilings in scripts/check-web-size.mjs.)
export { CollectionSchedule } from './CollectionSchedule';
export { VerifySchedulePage } from './VerifySchedulePage';
