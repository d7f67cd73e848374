import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { NavigationGuardDialog } from '../components/NavigationGuardDialog';
import { trpc, type TrpcClient } from '../trpc';
import { AppShell } from './AppShell';

/** The whole console: its data clients around the shell. The browser renders it (main.tsx), and so does
 * the server for the first paint of a page opened by URL (entry-server.tsx). */
export function ConsoleRoot({ trpcClient, queryClient }: { trpcClient: TrpcClient; queryClient: QueryClient }) {
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <AppShell />
        <NavigationGuardDialog />
      </QueryClientProvider>
    </trpc.Provider>
  );
}
