/**
 * First-run SDK snippets for a project's API endpoint: check who is signed in. The Get started page shows
 * them as they are, and a test runs the TypeScript and curl ones against a local stack.
 */
export function sdkSnippets(endpoint: string): { typescript: string; go: string; curl: string } {
  return {
    typescript: `import { Configuration, FrontendApi } from '@ory/client';

const ory = new FrontendApi(
  new Configuration({ basePath: '${endpoint}', baseOptions: { withCredentials: true } }),
);

// Who is signed in? The API answers 401 when nobody is.
try {
  const { data: session } = await ory.toSession();
  console.log('Signed in as', session.identity?.traits);
} catch (error) {
  if ((error as { response?: { status?: number } }).response?.status !== 401) throw error;
  console.log('Nobody is signed in');
}`,
    go: `package main

import (
	"context"
	"fmt"

	ory "github.com/ory/client-go"
)

func main() {
	cfg := ory.NewConfiguration()
	cfg.Servers = ory.ServerConfigurations{{URL: "${endpoint}"}}
	client := ory.NewAPIClient(cfg)

	// Forward the browser's session cookie from the incoming request.
	session, _, err := client.FrontendAPI.ToSession(context.Background()).Cookie("ory_session_...=...").Execute()
	if err != nil {
		panic(err)
	}
	fmt.Println(session.Identity.Traits)
}`,
    curl: `# Who is signed in? Send the session cookie (or a session token) you got at sign-in.
curl -s '${endpoint}/sessions/whoami' \\
  -H 'Accept: application/json' \\
  -H 'Cookie: ory_session_...=...'`,
  };
}

/** The frameworks the Connect page shows, in the picker's order. */
export const CONNECT_FRAMEWORKS = [
  { id: 'typescript', label: 'TypeScript / Node' },
  { id: 'react', label: 'React' },
  { id: 'nextjs', label: 'Next.js' },
  { id: 'go', label: 'Go' },
  { id: 'curl', label: 'cURL' },
] as const;

export type ConnectFramework = (typeof CONNECT_FRAMEWORKS)[number]['id'];

export interface ConnectSnippet {
  /** The command that installs the SDK, or null when there is nothing to install. */
  install: string | null;
  /** The shell or source language the code is written in, for its label. */
  language: string;
  code: string;
}

/**
 * The Connect page's snippets for a project's API endpoint, one per framework: each starts a sign-in (a login
 * flow) or checks the session against that endpoint. The page shows them as they are, and a test runs the
 * TypeScript one (and the cURL one) against a local stack.
 */
export function connectSnippets(endpoint: string): Record<ConnectFramework, ConnectSnippet> {
  return {
    typescript: {
      install: 'npm install @ory/client',
      language: 'TypeScript',
      code: `import { Configuration, FrontendApi } from '@ory/client';

const ory = new FrontendApi(new Configuration({ basePath: '${endpoint}' }));

// Start a sign-in from a server or a script: the flow holds the form to show (flow.ui.nodes).
const { data: flow } = await ory.createNativeLoginFlow();
console.log('Login flow', flow.id, 'expires at', flow.expires_at);`,
    },
    react: {
      install: 'npm install @ory/client',
      language: 'TSX',
      code: `import { Configuration, FrontendApi, type Session } from '@ory/client';
import { useEffect, useState } from 'react';

const ory = new FrontendApi(
  new Configuration({ basePath: '${endpoint}', baseOptions: { withCredentials: true } }),
);

export function Profile() {
  const [session, setSession] = useState<Session | null>(null);
  useEffect(() => {
    ory.toSession().then(
      ({ data }) => setSession(data),
      // Nobody is signed in: send the browser to the project's sign-in.
      () => window.location.assign('${endpoint}/self-service/login/browser'),
    );
  }, []);
  return session ? <p>Signed in as {session.identity?.id}</p> : <p>Loading…</p>;
}`,
    },
    nextjs: {
      install: 'npm install @ory/client',
      language: 'TSX',
      code: `// app/page.tsx: a server component that needs a signed-in user.
import { Configuration, FrontendApi } from '@ory/client';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';

const ory = new FrontendApi(new Configuration({ basePath: '${endpoint}' }));

export default async function Page() {
  const cookie = (await cookies()).toString();
  const session = await ory.toSession({ cookie }).then(({ data }) => data, () => null);
  if (!session) redirect('${endpoint}/self-service/login/browser');
  return <p>Signed in as {session.identity?.id}</p>;
}`,
    },
    go: {
      install: 'go get github.com/ory/client-go',
      language: 'Go',
      code: `package main

import (
	"context"
	"fmt"

	ory "github.com/ory/client-go"
)

func main() {
	cfg := ory.NewConfiguration()
	cfg.Servers = ory.ServerConfigurations{{URL: "${endpoint}"}}
	client := ory.NewAPIClient(cfg)

	// Start a sign-in: the flow holds the form to show (flow.Ui.Nodes).
	flow, _, err := client.FrontendAPI.CreateNativeLoginFlow(context.Background()).Execute()
	if err != nil {
		panic(err)
	}
	fmt.Println("Login flow", flow.Id, "expires at", flow.ExpiresAt)
}`,
    },
    curl: {
      install: null,
      language: 'Shell',
      code: `# Start a sign-in: the answer is the login flow, with the form to show in ui.nodes.
curl -s '${endpoint}/self-service/login/api' \\
  -H 'Accept: application/json'`,
    },
  };
}
