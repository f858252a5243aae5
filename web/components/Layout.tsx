import { Box } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Footer } from './Footer';
import { LoadingScreen } from './LoadingScreen';
import { NavBar } from './NavBar';
import { ScrollManager } from './ScrollManager';
import { ToastsFollowPage } from './ToastsFollowPage';

export function Layout() {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <ScrollManager />
      <ToastsFollowPage />
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <NavBar />
      <Box component="main" id="main" tabIndex={-1} style={{ flex: 1 }}>
        <Suspense fallback={<LoadingScreen />}>
          <Outlet />
        </Suspense>
      </Box>
      <Footer />
    </Box>
  );
}
