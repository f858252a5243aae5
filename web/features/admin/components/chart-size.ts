/**
 * The height of each chart card on the admin dashboard, kept free while the charts' data and code
 * load (AdminDashboardPage), so the tabs below do not jump when the charts appear. Shared with the
 * lazily loaded charts, which take at least as much.
 */
export const CHART_CARD_MIN_HEIGHT = 340;
