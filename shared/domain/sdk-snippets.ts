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
