import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useNavigate } from 'react-router';
import type { AuthUserResponse } from '../../common/contracts/accounts';
import { api, clearAccountData, clearToken, endServerSession, getToken, setToken, TOKEN_KEY } from './api';
import { authKeys } from './query-keys';
import { STALE_TIME_MS } from './query-client';

// Sign-in and sign-out as docs/product/messages.md describes them: the token lives in localStorage 'token'; an expired or unparsable token,
// or a failed profile fetch, removes it, clears the user and goes to /login.

export const LOGOUT_AUTH_SKIP_MS = 100;

export const authUserQuery = (token: string | null) =>
  queryOptions({
    queryKey: authKeys.user(token),
    queryFn: () => api.get<AuthUserResponse>('/api/auth/user'),
    enabled: Boolean(token),
    staleTime: STALE_TIME_MS,
    retry: false,
  });

/** exp in ms, or null when the token cannot be parsed. */
export function tokenExpiry(token: string): number | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
    return typeof json.exp === 'number' ? json.exp * 1000 : null;
  } catch {
    return null;
  }
}

type Session = {
  token: string | null;
  user: AuthUserResponse | null;
  /** True while a stored token's profile is still loading. */
  isLoading: boolean;
  /** Stores the token and resolves with the loaded profile. */
  login(token: string): Promise<AuthUserResponse>;
  /**
   * Ends the token on the server first (unless `serverEnded`: it is already dead there), then signs
   * this browser out and goes to '/'.
   */
  logout(options?: { serverEnded?: boolean }): Promise<void>;
  /** True for LOGOUT_AUTH_SKIP_MS after a logout: guards then neither toast nor redirect (docs/product/messages.md). */
  isAuthCheckSkipped(): boolean;
  /**
   * Ends the session everywhere: the stored token, this provider's state and the account's cached
   * data, then goes to /login. With `redirectAfterMs` the token leaves storage at once and the rest
   * happens with the redirect, so the screen stays put while its toast says what is happening.
   */
  expire(options?: { redirectAfterMs?: number }): void;
};

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setTokenState] = useState<string | null>(() => getToken());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const skipUntil = useRef(0);

  const pendingRedirect = useRef<ReturnType<typeof setTimeout> | null>(null);
  const expire = useCallback(
    (options: { redirectAfterMs?: number } = {}) => {
      clearToken();
      const end = () => {
        pendingRedirect.current = null;
        clearToken();
        setTokenState(null);
        queryClient.removeQueries({ queryKey: authKeys.all });
        navigate('/login');
      };
      if (pendingRedirect.current) clearTimeout(pendingRedirect.current);
      if (options.redirectAfterMs) pendingRedirect.current = setTimeout(end, options.redirectAfterMs);
      else end();
    },
    [navigate, queryClient],
  );
  useEffect(
    () => () => {
      if (pendingRedirect.current) clearTimeout(pendingRedirect.current);
    },
    [],
  );

  // Another tab logged in or out: follow it, so no tab keeps a session the storage no longer has.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === TOKEN_KEY || event.key === null) setTokenState(getToken());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  // Expired or unparsable token: checked at start and whenever the token changes.
  useEffect(() => {
    if (!token || Date.now() < skipUntil.current) return;
    const exp = tokenExpiry(token);
    if (exp === null || exp < Date.now()) {
      expire();
      return;
    }
    const timer = setTimeout(() => expire(), Math.min(exp - Date.now(), 2_147_000_000));
    return () => clearTimeout(timer);
  }, [token, expire]);

  const userQuery = useQuery(authUserQuery(token));
  useEffect(() => {
    if (userQuery.isError && token) expire();
  }, [userQuery.isError, token, expire]);

  const login = useCallback(
    async (newToken: string) => {
      setToken(newToken);
      try {
        const user = await queryClient.fetchQuery(authUserQuery(newToken));
        setTokenState(newToken);
        return user;
      } catch (err) {
        // The profile could not be loaded: no half-open session stays behind (docs/product/messages.md).
        clearToken();
        queryClient.removeQueries({ queryKey: authKeys.all });
        throw err;
      }
    },
    [queryClient],
  );

  const logout = useCallback(
    async (options: { serverEnded?: boolean } = {}) => {
      const current = getToken();
      if (current && !options.serverEnded) await endServerSession(current);
      skipUntil.current = Date.now() + LOGOUT_AUTH_SKIP_MS;
      clearToken();
      // Logging out on a shared computer leaves nothing of the account behind (sample drafts).
      clearAccountData();
      setTokenState(null);
      queryClient.clear();
      navigate('/', { replace: true });
    },
    [navigate, queryClient],
  );

  const value = useMemo<Session>(
    () => ({
      token,
      user: token ? (userQuery.data ?? null) : null,
      isLoading: Boolean(token) && userQuery.isPending,
      login,
      logout,
      isAuthCheckSkipped: () => Date.now() < skipUntil.current,
      expire,
    }),
    [token, userQuery.data, userQuery.isPending, login, logout, expire],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
