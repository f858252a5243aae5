import { lazy, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { homePathForRole } from '../../common/domain/roles';
import { Layout } from '../components/Layout';
import { LazyReportDialog, LazySampleReportPanel } from '../features/reports/lazy';
import { LazySampleQuotePanel, LazySendQuoteDialog } from '../features/quotes/lazy';
import { LazyInventoryTab, LazyLocationsTab, LazySampleCustodyPanel } from '../features/custody/lazy';
import { LoadingScreen } from '../components/LoadingScreen';
import { returnPathFrom } from '../lib/return-to';
import { useSession } from '../lib/session';
import { NotFoundPage } from './NotFoundPage';

// Every screen is its own chunk, so public pages never load the staff, admin or editor code.
const page = <K extends string>(load: () => Promise<Record<K, () => ReactNode>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

// The guard of the signed-in screens (and its messages) is not needed by a visitor's pages.
const RequireSession = lazy(async () => ({
  default: (await import('../components/RequireSession')).RequireSession,
}));
const LandingPage = page(() => import('../features/public/components/LandingPage'), 'LandingPage');
const AboutPage = page(() => import('../features/public/components/AboutPage'), 'AboutPage');
const ServicesPage = page(() => import('../features/public/components/ServicesPage'), 'ServicesPage');
const LegalPage = lazy(async () => ({
  default: (await import('../features/public/components/LegalPage')).LegalPage,
}));
const ContactPage = page(() => import('../features/contact/components/ContactPage'), 'ContactPage');
const LoginPage = page(() => import('../features/accounts/components/LoginPage'), 'LoginPage');
const RegisterPage = page(() => import('../features/accounts/components/RegisterPage'), 'RegisterPage');
const ForgotPasswordPage = page(
  () => import('../features/accounts/components/ForgotPasswordPage'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = page(
  () => import('../features/accounts/components/ResetPasswordPage'),
  'ResetPasswordPage',
);
const MailLinkPage = lazy(async () => ({
  default: (await import('../features/accounts/components/MailLinkPage')).MailLinkPage,
}));
const ProfilePage = lazy(async () => ({
  default: (await import('../features/accounts/components/ProfilePage')).ProfilePage,
}));
const PartnerSections = lazy(async () => ({
  default: (await import('../features/partners/components/PartnerSections')).PartnerSections,
}));
const SubmitSamplePage = lazy(async () => ({
  default: (await import('../features/samples/components/SubmitSamplePage')).SubmitSamplePage,
}));
const SampleDetailPage = lazy(async () => ({
  default: (await import('../features/samples/components/SampleDetailPage')).SampleDetailPage,
}));
const CustomerDashboardPage = lazy(async () => ({
  default: (await import('../features/dashboard/components/CustomerDashboardPage')).CustomerDashboardPage,
}));
const CollectionPage = lazy(async () => ({
  default: (await import('../features/collections/components/CollectionPage')).CollectionPage,
}));
const CollectionSchedule = lazy(async () => ({
  default: (await import('../features/schedules/components/screens')).CollectionSchedule,
}));
const VerifySchedulePage = lazy(async () => ({
  default: (await import('../features/schedules/components/screens')).VerifySchedulePage,
}));
const CollectionsSection = lazy(async () => ({
  default: (await import('../features/collections/components/CollectionsSection')).CollectionsSection,
}));
const CollectionField = lazy(async () => ({
  default: (await import('../features/collections/components/CollectionField')).CollectionField,
}));
const ClientHome = page(() => import('../features/dashboard/components/ClientHome'), 'ClientHome');
const StaffDashboardPage = lazy(async () => ({
  default: (await import('../features/staff/components/StaffDashboardPage')).StaffDashboardPage,
}));
const AdminDashboardPage = lazy(async () => ({
  default: (await import('../features/admin/components/AdminDashboardPage')).AdminDashboardPage,
}));
const VerifyReportPage = page(
  () => import('../features/verify/components/VerifyReportPage'),
  'VerifyReportPage',
);

export const SUBMIT_UNAUTHORIZED_MESSAGE =
  'You are not authorized to access this page. Redirecting to login...';

/** '/' is the landing page for visitors and the client home once logged in (docs/product/screens.md). */
function Home() {
  const { user, isLoading } = useSession();
  if (isLoading) return <LoadingScreen />;
  return user ? <ClientHome /> : <LandingPage />;
}

/** /login and /register are for logged-out visitors; others go where their role lands (docs/product/roles-and-access.md). */
function GuestOnly({ children }: { children: ReactNode }) {
  const { user, isLoading } = useSession();
  const location = useLocation();
  if (isLoading) return <LoadingScreen />;
  if (user) return <Navigate to={returnPathFrom(location) ?? homePathForRole(user.role)} replace />;
  return <>{children}</>;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Home />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="services" element={<ServicesPage />} />
        <Route path="contact" element={<ContactPage />} />
        <Route path="verify-report" element={<VerifyReportPage />} />
        <Route path="verify-schedule" element={<VerifySchedulePage />} />
        <Route path="privacy" element={<LegalPage topic="privacy" />} />
        <Route path="terms" element={<LegalPage topic="terms" />} />
        <Route path="cookies" element={<LegalPage topic="cookies" />} />
        <Route
          path="login"
          element={
            <GuestOnly>
              <LoginPage />
            </GuestOnly>
          }
        />
        <Route
          path="register"
          element={
            <GuestOnly>
              <RegisterPage />
            </GuestOnly>
          }
        />
        {/* Reached from mails: open whether or not someone is signed in in this browser. */}
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="verify-email" element={<MailLinkPage purpose="verify-email" />} />
        <Route path="unsubscribe" element={<MailLinkPage purpose="unsubscribe" />} />
        <Route
          path="submit-sample"
          element={
            <RequireSession message={SUBMIT_UNAUTHORIZED_MESSAGE}>
              <SubmitSamplePage collectionField={CollectionField} />
            </RequireSession>
          }
        />
        <Route
          path="dashboard"
          element={
            <RequireSession>
              <CustomerDashboardPage collectionsSection={CollectionsSection} />
            </RequireSession>
          }
        />
        <Route
          path="sample/:id"
          element={
            <RequireSession>
              <SampleDetailPage
                reportPanel={LazySampleReportPanel}
                quotePanel={LazySampleQuotePanel}
                custodyPanel={LazySampleCustodyPanel}
              />
            </RequireSession>
          }
        />
        <Route
          path="collections/:id"
          element={
            <RequireSession>
              <CollectionPage scheduleSection={CollectionSchedule} />
            </RequireSession>
          }
        />
        <Route
          path="profile"
          element={
            <RequireSession>
              <ProfilePage partnerSections={PartnerSections} />
            </RequireSession>
          }
        />
        <Route
          path="staff"
          element={
            <RequireSession roles={['staff', 'admin']}>
              <StaffDashboardPage reportDialog={LazyReportDialog} quoteDialog={LazySendQuoteDialog} />
            </RequireSession>
          }
        />
        <Route
          path="admin"
          element={
            <RequireSession roles={['staff', 'admin']}>
              <AdminDashboardPage
                quoteDialog={LazySendQuoteDialog}
                inventoryTab={LazyInventoryTab}
                locationsTab={LazyLocationsTab}
              />
            </RequireSession>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
