/**
 * The height of each chart card on the admin dashboard, kept free while the charts' data and code
 * load (AdminDashboardPage), so the tabs below do not jump when the charts appear. Shared with the
 * lazily loaded charts, which take at least as much. Measured in Chromium: 375 px on two columns
 * (the status legend wraps to two lines); on one column the legend may wrap further at 375 px wide,
 * below the fold.
 */
export const CHART_CARD_MIN_HEIGHT = 384;
