/** One endpoint of a project's OAuth2 and OpenID Connect server. */
export interface OAuth2Endpoint {
  id: string;
  label: string;
  description: string;
  url: string;
}

/**
 * Every endpoint of a project's OAuth2 server, at Hydra's paths below the project's API URL (its issuer): where
 * the project really answers, in the cloud and in the local stack alike.
 */
export function oauth2Endpoints(apiUrl: string): OAuth2Endpoint[] {
  const base = apiUrl.replace(/\/+$/, '');
  return [
    { id: 'issuer', label: 'Issuer', description: 'The iss of every token; clients discover the rest from it.', url: base },
    { id: 'discovery', label: 'OpenID Connect discovery', description: 'The server\u2019s metadata: endpoints, scopes, algorithms.', url: `${base}/.well-known/openid-configuration` },
    { id: 'authorization', label: 'Authorization', description: 'Where a browser starts signing a user in.', url: `${base}/oauth2/auth` },
    { id: 'token', label: 'Token', description: 'Where clients exchange codes, refresh tokens or credentials for tokens.', url: `${base}/oauth2/token` },
    { id: 'userinfo', label: 'Userinfo', description: 'Returns the signed-in user\u2019s claims for an access token.', url: `${base}/userinfo` },
    { id: 'jwks', label: 'JSON Web Key Set', description: 'The public keys that verify ID tokens and JWT access tokens.', url: `${base}/.well-known/jwks.json` },
    { id: 'revocation', label: 'Revocation', description: 'Revokes an access or refresh token.', url: `${base}/oauth2/revoke` },
    { id: 'introspection', label: 'Introspection', description: 'Tells whether a token is active (admin API, with a project API key).', url: `${base}/admin/oauth2/introspect` },
    { id: 'logout', label: 'Logout', description: 'Ends the user\u2019s session with the server (OpenID Connect RP-initiated logout).', url: `${base}/oauth2/sessions/logout` },
  ];
}
